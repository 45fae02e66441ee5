package org.perflab.jobs.cli;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.perflab.errors.BadInputException;
import org.perflab.spark.storage.DeltaSessions;

/** Small text files (models, grids, results) on any Hadoop file system: local paths, file://, hdfs://, s3a://. */
public final class TextFiles {
  private TextFiles() {}

  /** The whole file as UTF-8; a missing or unreadable file is bad input described as "Cannot read {what} ...". */
  public static String read(String path, String what) {
    Path p = new Path(path);
    try {
      FileSystem fs = p.getFileSystem(DeltaSessions.hadoopConfiguration());
      try (InputStream in = fs.open(p)) {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
    } catch (FileNotFoundException e) {
      throw new BadInputException("Cannot read " + what + ": no such file (" + path + ")", e);
    } catch (IOException | IllegalArgumentException e) {
      throw new BadInputException("Cannot read " + what + ": " + e.getMessage() + " (" + path + ")", e);
    }
  }

  /**
   * Writes {@code text} to a temporary sibling and renames it over {@code path}, so readers never see half a file.
   * Nothing else is left behind: the temporary file is removed when the write fails, and on the local file system no
   * {@code .crc} checksum files are written (a stale one beside {@code path} is removed). A directory at {@code path}
   * is bad input, never replaced.
   */
  public static void writeAtomically(String path, String text) {
    Path target = new Path(path);
    Path temp = null;
    FileSystem fs = null;
    try {
      fs = target.getFileSystem(DeltaSessions.hadoopConfiguration());
      boolean local = fs instanceof LocalFileSystem;
      if (local) {
        fs = ((LocalFileSystem) fs).getRawFileSystem();
      }
      if (fs.exists(target) && fs.getFileStatus(target).isDirectory()) {
        throw new BadInputException("Cannot write " + path + ": it is a directory (give a file path)");
      }
      temp = new Path(target.getParent(), "." + target.getName() + ".tmp-" + System.nanoTime());
      try (OutputStream out = fs.create(temp, true)) {
        out.write(text.getBytes(StandardCharsets.UTF_8));
      }
      if (fs.exists(target)) {
        fs.delete(target, false);
      }
      if (!fs.rename(temp, target)) {
        throw new IOException("rename of " + temp + " failed");
      }
      temp = null;
      Path staleChecksum = new Path(target.getParent(), "." + target.getName() + ".crc");
      if (local && fs.exists(staleChecksum)) {
        fs.delete(staleChecksum, false);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write " + path + ": " + e.getMessage(), e);
    } finally {
      if (temp != null) {
        deleteQuietly(fs, temp);
      }
    }
  }

  private static void deleteQuietly(FileSystem fs, Path path) {
    try {
      fs.delete(path, false);
    } catch (IOException e) {
      // The write already failed; its exception says why.
    }
  }
}
