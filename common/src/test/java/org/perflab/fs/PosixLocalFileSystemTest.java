package org.perflab.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PosixLocalFileSystem} and {@link PosixLocalFs} against Hadoop's own local file system on the same operations:
 * the same permissions, link statuses and rename semantics; and, in a JVM whose {@code PATH} holds no program, the
 * writes of a Delta commit succeed with PerfLab's classes and fail with Hadoop's, which run {@code chmod} and
 * {@code readlink}.
 */
class PosixLocalFileSystemTest {
  private static final short[] MODES = {0644, 0755, 0700, 0640, 0600, 0777, 0750, 0444, 0000, 01777};

  @TempDir java.nio.file.Path temp;

  @Test
  void filesAndDirectoriesGetTheSamePermissionsAsWithHadoopsLocalFileSystem() throws IOException {
    try (FileSystem hadoop = fileSystem(false); FileSystem posix = fileSystem(true)) {
      for (short mode : MODES) {
        FsPermission permission = new FsPermission(mode);
        String name = Integer.toOctalString(mode);
        for (FileSystem fs : List.of(hadoop, posix)) {
          Path dir = dir(fs == posix ? "posix" : "hadoop");
          fs.mkdirs(new Path(dir, "d" + name), permission);
          try (FSDataOutputStream out = fs.create(new Path(dir, "f" + name), permission, true, 4096, (short) 1,
              1 << 20, null)) {
            out.write(1);
          }
          Path later = new Path(dir, "s" + name);
          fs.create(later, true).close();
          fs.setPermission(later, permission);
        }
        for (String prefix : List.of("d", "f", "s")) {
          assertThat(permissions(temp.resolve("posix").resolve(prefix + name)))
              .as(prefix + " " + name).isEqualTo(permissions(temp.resolve("hadoop").resolve(prefix + name)));
        }
      }
      assertThat(permissions(temp.resolve("posix/f640"))).containsExactlyInAnyOrder(
          PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE, PosixFilePermission.GROUP_READ);
    }
  }

  @Test
  void aPathsLinkStatusIsHadoops() throws IOException {
    java.nio.file.Path file = Files.writeString(temp.resolve("file"), "abc");
    java.nio.file.Path directory = Files.createDirectory(temp.resolve("directory"));
    java.nio.file.Path link = Files.createSymbolicLink(temp.resolve("link"), file);
    java.nio.file.Path dangling = Files.createSymbolicLink(temp.resolve("dangling"), temp.resolve("gone"));
    try (FileSystem hadoop = fileSystem(false); FileSystem posix = fileSystem(true)) {
      for (java.nio.file.Path local : List.of(file, directory, link, dangling)) {
        for (Path path : List.of(new Path(local.toString()), new Path(local.toUri()))) {
          assertThat(linkStatus(posix, path)).as(path.toString()).isEqualTo(linkStatus(hadoop, path));
        }
      }
      assertThat(linkStatus(posix, new Path(link.toString()))).startsWith("symlink true");
      Path missing = new Path(temp.resolve("missing").toUri());
      assertThatThrownBy(() -> hadoop.getFileLinkStatus(missing)).isInstanceOf(FileNotFoundException.class);
      assertThatThrownBy(() -> posix.getFileLinkStatus(missing)).isInstanceOf(FileNotFoundException.class);
    }
  }

  @Test
  void aFileContextRenameRefusesAnExistingTargetAndMovesTheFileAndItsChecksum() throws IOException {
    FileContext context = FileContext.getFileContext(temp.toUri(), configuration(true));
    assertThat(context.getDefaultFileSystem()).isInstanceOf(PosixLocalFs.class);
    Path source = new Path(temp.resolve("00001.json.tmp").toUri());
    Path target = new Path(temp.resolve("00001.json").toUri());
    write(context, source, "commit");
    write(context, target, "other writer");
    assertThatThrownBy(() -> context.rename(source, target, Options.Rename.NONE))
        .isInstanceOf(FileAlreadyExistsException.class);
    context.delete(target, false);
    context.rename(source, target, Options.Rename.NONE);
    assertThat(Files.readString(temp.resolve("00001.json"))).isEqualTo("commit");
    assertThat(temp.resolve(".00001.json.crc")).exists();
    assertThat(temp.resolve("00001.json.tmp")).doesNotExist();
  }

  /**
   * A JVM whose {@code PATH} names an empty directory cannot start {@code chmod} or {@code readlink}: the writes of
   * {@link Commit} succeed there with PerfLab's classes, and fail with Hadoop's (so the check can fail).
   */
  @Test
  void aCommitsWritesStartNoProcess() throws Exception {
    Result posix = commitInJvmWithoutPrograms(true);
    assertThat(posix.exit()).as(posix.output()).isZero();
    assertThat(posix.output()).contains("committed");
    Result hadoop = commitInJvmWithoutPrograms(false);
    assertThat(hadoop.exit()).as(hadoop.output()).isNotZero();
    assertThat(hadoop.output()).containsPattern("chmod|readlink");
  }

  /** The writes of a Delta commit on a local disk: a directory, a data file, a log file renamed into place. */
  public static final class Commit {
    public static void main(String[] args) throws IOException {
      boolean usePosix = Boolean.parseBoolean(args[0]);
      java.nio.file.Path root = java.nio.file.Path.of(args[1]);
      try (FileSystem fs = fileSystem(configuration(usePosix))) {
        Path table = new Path(root.resolve("table").toUri());
        fs.mkdirs(new Path(table, "_delta_log"));
        try (FSDataOutputStream out = fs.create(new Path(table, "part-00000.parquet"), true)) {
          out.write(new byte[] {1, 2, 3});
        }
        FileContext context = FileContext.getFileContext(table.toUri(), configuration(usePosix));
        Path temporary = new Path(table, "_delta_log/.00000.json.tmp");
        write(context, temporary, "{}");
        context.rename(temporary, new Path(table, "_delta_log/00000.json"), Options.Rename.NONE);
      }
      System.out.println("committed");
    }
  }

  private record Result(int exit, String output) {}

  private Result commitInJvmWithoutPrograms(boolean usePosix) throws Exception {
    java.nio.file.Path noPrograms = Files.createTempDirectory(temp, "no-programs");
    java.nio.file.Path root = Files.createTempDirectory(temp, "root");
    java.nio.file.Path output = temp.resolve("commit-" + usePosix + ".out");
    String javaCommand = java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command = List.of(javaCommand, "-cp", System.getProperty("java.class.path"),
        Commit.class.getName(), Boolean.toString(usePosix), root.toString());
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
    builder.environment().put("PATH", noPrograms.toString());
    Process process = builder.start();
    assertThat(process.waitFor(2, TimeUnit.MINUTES)).as("the commit's JVM ends").isTrue();
    return new Result(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
  }

  /** What {@code getFileLinkStatus} says of {@code path}: its fields, or the exception's class. */
  private static String linkStatus(FileSystem fs, Path path) {
    try {
      FileStatus status = fs.getFileLinkStatus(path);
      return "symlink " + status.isSymlink() + (status.isSymlink() ? " to " + status.getSymlink() : "") + ", file "
          + status.isFile() + ", directory " + status.isDirectory() + ", length " + status.getLen() + ", path "
          + status.getPath();
    } catch (IOException e) {
      return e.getClass().getName();
    }
  }

  private Path dir(String name) throws IOException {
    return new Path(Files.createDirectories(temp.resolve(name)).toUri());
  }

  private static Set<PosixFilePermission> permissions(java.nio.file.Path path) throws IOException {
    return Files.getPosixFilePermissions(path);
  }

  private static void write(FileContext context, Path path, String text) throws IOException {
    try (FSDataOutputStream out = context.create(path, java.util.EnumSet.of(org.apache.hadoop.fs.CreateFlag.CREATE),
        Options.CreateOpts.createParent())) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }

  private static FileSystem fileSystem(boolean usePosix) throws IOException {
    return fileSystem(configuration(usePosix));
  }

  private static FileSystem fileSystem(Configuration conf) throws IOException {
    return FileSystem.newInstance(java.net.URI.create("file:///"), conf);
  }

  private static Configuration configuration(boolean usePosix) {
    Configuration conf = new Configuration();
    if (usePosix) {
      LocalFileSystems.hadoopSettings().forEach(conf::set);
    }
    return conf;
  }
}
