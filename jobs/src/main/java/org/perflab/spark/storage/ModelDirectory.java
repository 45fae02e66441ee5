package org.perflab.spark.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.ml.util.MLWritable;

/**
 * Fitted MLlib models under an output root, at {@code <root>/_perflab_models/<name>/}, saved with MLlib's persistence
 * ({@code PipelineModel.load} reads them back). A save replaces the model whole, as nearly atomically as the file
 * system allows: the model is written to {@code <name>.tmp-<suffix>} beside it, the old model renamed away to
 * {@code <name>.old-<suffix>}, the new one renamed into place, then the old one deleted. A reader meets either the
 * old model or the new; on HDFS and local disks each rename is atomic, so only the instant between the two renames
 * has no model (object stores copy on rename and give no such promise). The leading underscore keeps the directory
 * out of {@link TableStore#tableDirectories()}.
 */
public final class ModelDirectory {
  /** The directory under the output root that holds PerfLab's models. */
  public static final String MODELS = "_perflab_models";

  private final FileSystem fs;
  private final Path directory;

  public ModelDirectory(TableStore store) {
    this.fs = store.fileSystem();
    this.directory = store.path(MODELS);
  }

  /** Where the model {@code name} lives. */
  public Path path(String name) {
    return new Path(directory, name);
  }

  /** Writes a model's files into a directory that does not exist yet. */
  @FunctionalInterface
  public interface Writer {
    void write(Path directory) throws IOException;
  }

  /**
   * Saves {@code model} as {@code name}, replacing the model saved before.
   *
   * @param suffix makes the temporary names unique to this run (the Spark application id, say)
   */
  public Path replace(String name, MLWritable model, String suffix) {
    return replace(name, directory -> model.write().overwrite().save(directory.toString()), suffix);
  }

  /**
   * Saves the files {@code writer} writes as the model {@code name}, replacing the model saved before: for a model of
   * several parts (several MLlib models, tables beside them) replaced together.
   *
   * @param suffix makes the temporary names unique to this run (the Spark application id, say)
   */
  public Path replace(String name, Writer writer, String suffix) {
    Path target = path(name);
    Path temporary = path(name + ".tmp-" + suffix);
    Path old = path(name + ".old-" + suffix);
    try {
      fs.delete(temporary, true);
      writer.write(temporary);
      boolean hadModel = fs.exists(target);
      if (hadModel && !fs.rename(target, old)) {
        throw new IOException("cannot rename " + target + " to " + old);
      }
      if (!fs.rename(temporary, target)) {
        throw new IOException("cannot rename " + temporary + " to " + target);
      }
      if (hadModel) {
        fs.delete(old, true);
      }
      return target;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot save the " + name + " model: " + e.getMessage() + " (" + target + ")",
          e);
    }
  }
}
