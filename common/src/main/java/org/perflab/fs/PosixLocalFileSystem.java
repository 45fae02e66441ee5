package org.perflab.fs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * Hadoop's checksummed local file system ({@code file:}, {@link LocalFileSystem}) over {@link Raw}: the same files,
 * permissions and checksums, without child processes.
 *
 * <p>Without Hadoop's native library (libhadoop, which Spark's distribution does not ship), Hadoop's
 * {@link RawLocalFileSystem} sets a permission by running {@code chmod}, which it does for every file a Parquet or
 * Delta write creates and every directory it makes, and tells whether a path is a symbolic link by running
 * {@code readlink}, which it does twice per Delta commit (the commit's rename checks both paths). One run of the
 * {@code jobs} module's tests started 17,584 such processes (about one every 70 ms), each from a JVM of gigabytes;
 * the README's night took 16-26 % less time without them (docs/benchmarks.md). Set through
 * {@link LocalFileSystems#hadoopSettings()}.
 */
public class PosixLocalFileSystem extends LocalFileSystem {
  public PosixLocalFileSystem() {
    super(new Raw());
  }

  /**
   * Hadoop's {@link RawLocalFileSystem} with {@link #setPermission} and {@link #getFileLinkStatus} done through
   * {@code java.nio.file}; a permission java.nio cannot set (the sticky bit) and a path that is a symbolic link are left
   * to Hadoop's own code.
   */
  public static class Raw extends RawLocalFileSystem {
    @Override
    public void setPermission(Path p, FsPermission permission) throws IOException {
      Optional<Set<PosixFilePermission>> posix = posix(permission);
      if (posix.isEmpty()) {
        super.setPermission(p, permission);
        return;
      }
      try {
        Files.setPosixFilePermissions(pathToFile(p).toPath(), posix.get());
      } catch (UnsupportedOperationException e) { // a file system without POSIX permissions
        super.setPermission(p, permission);
      }
    }

    /**
     * The status of {@code f} itself: Hadoop's, which for a path that is not a symbolic link is
     * {@link #getFileStatus} (a {@code FileNotFoundException} when it does not exist).
     */
    @Override
    public FileStatus getFileLinkStatus(Path f) throws IOException {
      if (!Files.isSymbolicLink(pathToFile(f).toPath())) {
        return getFileStatus(f);
      }
      return super.getFileLinkStatus(f);
    }
  }

  /** {@code permission} as java.nio's permission set; empty when it has the sticky bit, which java.nio cannot set. */
  static Optional<Set<PosixFilePermission>> posix(FsPermission permission) {
    if (permission.getStickyBit()) {
      return Optional.empty();
    }
    Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
    add(set, permission.getUserAction(), PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE,
        PosixFilePermission.OWNER_EXECUTE);
    add(set, permission.getGroupAction(), PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE,
        PosixFilePermission.GROUP_EXECUTE);
    add(set, permission.getOtherAction(), PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE,
        PosixFilePermission.OTHERS_EXECUTE);
    return Optional.of(set);
  }

  private static void add(Set<PosixFilePermission> set, FsAction action, PosixFilePermission read,
      PosixFilePermission write, PosixFilePermission execute) {
    if (action.implies(FsAction.READ)) {
      set.add(read);
    }
    if (action.implies(FsAction.WRITE)) {
      set.add(write);
    }
    if (action.implies(FsAction.EXECUTE)) {
      set.add(execute);
    }
  }
}
