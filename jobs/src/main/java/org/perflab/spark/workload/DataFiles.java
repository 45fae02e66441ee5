package org.perflab.spark.workload;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** Hadoop FileSystem chores of the workloads: clearing outputs, sizing inputs, the prepared marker. */
public final class DataFiles {
  private final Configuration hadoop;

  public DataFiles(Configuration hadoop) {
    this.hadoop = hadoop;
  }

  /** Deletes {@code path} recursively if it exists. */
  public void delete(String path) {
    onFileSystem("delete", path, (fs, target) -> fs.exists(target) && fs.delete(target, true));
  }

  /** Total bytes of the files under {@code path}, or 0 when it does not exist. */
  public long bytes(String path) {
    return onFileSystem("size", path,
        (fs, target) -> fs.exists(target) ? fs.getContentSummary(target).getLength() : 0L);
  }

  /** Reads a properties file, or returns null when it does not exist. */
  public Properties readProperties(String path) {
    return onFileSystem("read", path, (fs, target) -> {
      if (!fs.exists(target)) {
        return null;
      }
      Properties properties = new Properties();
      try (InputStream in = fs.open(target)) {
        properties.load(in);
      }
      return properties;
    });
  }

  public void writeProperties(String path, Properties properties) {
    onFileSystem("write", path, (fs, target) -> {
      try (OutputStream out = fs.create(target, true)) {
        properties.store(out, "PerfLab prepared data set");
      }
      return true;
    });
  }

  private <T> T onFileSystem(String verb, String path, FileSystemAction<T> action) {
    try {
      Path target = new Path(path);
      return action.apply(target.getFileSystem(hadoop), target);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot " + verb + " " + path + ": " + e.getMessage(), e);
    }
  }

  @FunctionalInterface
  private interface FileSystemAction<T> {
    T apply(FileSystem fs, Path target) throws IOException;
  }
}
