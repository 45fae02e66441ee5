package org.perflab.jobs.nightly;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
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
        if (!status.isDirectory()) {
          bytes += status.getLen();
        } else {
          RemoteIterator<LocatedFileStatus> files = fs.listFiles(status.getPath(), true);
          while (files.hasNext() && bytes <= limit) {
            bytes += files.next().getLen();
          }
        }
        if (bytes > limit) {
          return false;
        }
      }
    }
    return true;
  }
}
