package org.perflab.jobs.nightly;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;

/** Whether the night's archives are small, by the bytes of the files under them. */
public final class ArchiveSize {
  private ArchiveSize() {}

  /**
   * Whether the files under {@code archives} (paths or globs, as {@code --archive} takes them; directories listed
   * recursively) hold at most {@code limit} bytes in all. The listing stops as soon as the sum exceeds the limit, so on
   * a large archive it reads only its first directory pages.
   *
   * <p>One {@code listStatusIterator} per directory, never {@code listFiles}: the recursive listing wraps every file
   * in a {@code LocatedFileStatus}, whose constructor reads the file's permission, which Hadoop's local file system
   * does by running {@code ls -ld} in a new process per file. Over the 11,000-log benchmark archive that was about
   * 1,100 processes and 16–21 s of every night before its first step (docs/benchmarks.md).
   *
   * @throws IOException when an archive cannot be listed
   */
  public static boolean atMost(Configuration conf, List<String> archives, long limit) throws IOException {
    long bytes = 0;
    for (String archive : archives) {
      Path pattern = new Path(archive);
      FileSystem fs = pattern.getFileSystem(conf);
      FileStatus[] matched = fs.globStatus(pattern);
      if (matched == null) {
        continue;
      }
      for (FileStatus status : matched) {
        bytes += status.isDirectory() ? bytesUnder(fs, status.getPath(), limit - bytes) : status.getLen();
        if (bytes > limit) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * The bytes of the files under {@code directory}, depth first, or a sum above {@code limit} as soon as one is
   * reached.
   */
  private static long bytesUnder(FileSystem fs, Path directory, long limit) throws IOException {
    long bytes = 0;
    Deque<Path> pending = new ArrayDeque<>(List.of(directory));
    while (!pending.isEmpty() && bytes <= limit) {
      RemoteIterator<FileStatus> children;
      try {
        children = fs.listStatusIterator(pending.pop());
      } catch (FileNotFoundException e) {
        continue; // deleted while listed
      }
      while (children.hasNext() && bytes <= limit) {
        FileStatus child = children.next();
        if (child.isDirectory()) {
          pending.push(child.getPath());
        } else {
          bytes += child.getLen();
        }
      }
    }
    return bytes;
  }
}
