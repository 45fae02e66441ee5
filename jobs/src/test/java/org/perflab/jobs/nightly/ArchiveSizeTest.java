package org.perflab.jobs.nightly;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ArchiveSizeTest {
  @TempDir
  Path temp;

  @Test
  void sumsTheFilesUnderDirectoriesAndGlobsAgainstTheLimit() throws Exception {
    Path archive = Files.createDirectories(temp.resolve("archive/nested"));
    Files.write(archive.resolve("a"), new byte[600]);
    Files.write(archive.getParent().resolve("b"), new byte[400]);
    Configuration conf = new Configuration();
    String directory = archive.getParent().toString();

    assertThat(ArchiveSize.atMost(conf, List.of(directory), 1000)).isTrue();
    assertThat(ArchiveSize.atMost(conf, List.of(directory), 999)).isFalse();
    assertThat(ArchiveSize.atMost(conf, List.of(directory + "/b", directory + "/nested"), 1000)).isTrue();
    assertThat(ArchiveSize.atMost(conf, List.of(directory + "/*"), 999)).isFalse();
    assertThat(ArchiveSize.atMost(conf, List.of(directory, directory), 1999)).as("each archive counts").isFalse();
    assertThat(ArchiveSize.atMost(conf, List.of(temp.resolve("missing").toString()), 0)).isTrue();
  }

  /** A file larger than the limit stops the count: its length, not its bytes, is read (here a sparse file). */
  @Test
  void aLargeArchiveIsNotSmall() throws Exception {
    Path archive = Files.createDirectories(temp.resolve("large"));
    try (RandomAccessFile file = new RandomAccessFile(archive.resolve("log").toFile(), "rw")) {
      file.setLength(65L << 20);
    }

    assertThat(ArchiveSize.atMost(new Configuration(), List.of(archive.toString()), 64L << 20)).isFalse();
  }
}
