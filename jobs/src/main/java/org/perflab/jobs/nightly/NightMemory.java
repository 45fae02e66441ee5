package org.perflab.jobs.nightly;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Optional;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Where the nightly keeps the {@link NightState} of its last complete night: {@code <output>/_perflab_state/nightly.json},
 * beside the incremental jobs' watermarks, replaced whole ({@link org.perflab.spark.storage.StateFiles}). Reads only
 * the file system, no Spark.
 */
public final class NightMemory {
  /** The state file's name under {@code <output>/_perflab_state/}. */
  public static final String FILE_NAME = "nightly.json";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final FileSystem fs;
  private final Path file;

  public NightMemory(FileSystem fs, Path root) {
    this.fs = fs;
    this.file = new Path(new Path(root, org.perflab.spark.storage.ChangedLogs.STATE_DIRECTORY), FILE_NAME);
  }

  /** The last complete night's state; empty when there is none, or it cannot be read (then every step runs). */
  public Optional<NightState> read() {
    try {
      if (!fs.exists(file)) {
        return Optional.empty();
      }
      try (InputStream in = fs.open(file)) {
        return Optional.of(JSON.readValue(in, new TypeReference<NightState>() {}));
      }
    } catch (IOException | RuntimeException e) {
      org.slf4j.LoggerFactory.getLogger(NightMemory.class).warn(
          "Cannot read the last complete night's state: {} ({}); every step runs", e.getMessage(), file);
      return Optional.empty();
    }
  }

  /** Replaces the state with {@code state}. */
  public void write(NightState state) {
    try {
      org.perflab.spark.storage.StateFiles.replace(fs, file, state);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write the night's state: " + e.getMessage() + " (" + file + ")", e);
    }
  }
}
