package org.perflab.spark.storage;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.OutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The small JSON files under {@code <output>/_perflab_state/} (the incremental jobs' watermarks, the nightly's last
 * complete night): each written whole to a temporary file beside it and renamed over the old one, so a killed run
 * leaves the previous file or the new one, never half of one.
 */
public final class StateFiles {
  private static final ObjectMapper JSON = new ObjectMapper();

  private StateFiles() {}

  /** Replaces {@code file} with {@code value} as indented JSON, creating its directory if needed. */
  public static void replace(FileSystem fs, Path file, Object value) throws IOException {
    Path temporary = new Path(file.getParent(), "." + file.getName() + ".tmp");
    fs.mkdirs(file.getParent());
    try (OutputStream out = fs.create(temporary, true)) {
      JSON.writerWithDefaultPrettyPrinter().writeValue(out, value);
    }
    fs.delete(file, false);
    if (!fs.rename(temporary, file)) {
      throw new IOException("rename of " + temporary + " failed");
    }
  }
}
