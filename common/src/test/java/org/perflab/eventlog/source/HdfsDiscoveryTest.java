package org.perflab.eventlog.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.errors.BadInputException;
import org.perflab.eventlog.fixture.LogFixtures;

/** Discovery and reading on a real HDFS (MiniDFSCluster), addressed by {@code hdfs://} URIs. */
class HdfsDiscoveryTest {
  private static final List<String> LINES = LogFixtures.sampleLines("app-h", 400);

  @TempDir static Path work;
  private static MiniDFSCluster cluster;
  private static Configuration conf;
  private static String root;

  @BeforeAll
  static void startHdfsWithAnArchive() throws IOException {
    Configuration clusterConf = new Configuration();
    clusterConf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, work.resolve("dfs").toString());
    cluster = new MiniDFSCluster.Builder(clusterConf).numDataNodes(1).build();
    cluster.waitActive();
    conf = cluster.getConfiguration(0);
    FileSystem fs = cluster.getFileSystem();
    root = fs.getUri() + "/archive";

    Path local = work.resolve("archive");
    LogFixtures.singleFile(local, "app-1", LINES, LogCompression.LZ4, false);
    LogFixtures.singleFile(local.resolve("nested"), "app-2", LINES, LogCompression.NONE, true);
    LogFixtures.rollingDirectory(local, "app-3", LINES, LogCompression.ZSTD, 50, false);
    LogFixtures.legacyDirectory(local.resolve("old"), "app-4", LINES, LogCompression.SNAPPY, "1.2.0", false);
    Files.write(local.resolve("app-5.bz2"), new byte[] {'B', 'Z', 'h'});
    fs.copyFromLocalFile(new org.apache.hadoop.fs.Path(local.toUri()), new org.apache.hadoop.fs.Path(root));
  }

  @AfterAll
  static void stopHdfs() {
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  @Test
  void findsEveryLayoutAndReadsItBack() throws IOException {
    Discovery found = LogDiscovery.discover(List.of(root), conf);

    assertThat(found.logs()).extracting(EventLogSource::path, EventLogSource::layout, EventLogSource::codec,
            EventLogSource::inProgress)
        .containsExactly(
            tuple(root + "/app-1.lz4", LogLayout.SINGLE_FILE, LogCompression.LZ4, false),
            tuple(root + "/eventlog_v2_app-3", LogLayout.ROLLING_DIRECTORY, LogCompression.ZSTD, false),
            tuple(root + "/nested/app-2.inprogress", LogLayout.SINGLE_FILE, LogCompression.NONE, true),
            tuple(root + "/old/app-4", LogLayout.LEGACY_DIRECTORY, LogCompression.SNAPPY, false));
    assertThat(found.logs().get(1).parts()).hasSize(8).allMatch(p -> p.startsWith(root + "/eventlog_v2_app-3/"));
    assertThat(found.skipped()).extracting(SkippedFile::path, SkippedFile::bytes)
        .containsExactly(tuple(root + "/app-5.bz2", 3L));
    for (EventLogSource log : found.logs()) {
      assertThat(EventLogLinesTest.readAll(log)).as(log.path()).isEqualTo(LINES);
    }
  }

  @Test
  void flatListingFindsTheSameLogsAsTheTreeListing() throws IOException {
    Configuration flat = new Configuration(conf);
    flat.set(LogDiscovery.LISTING_KEY, "flat");

    assertThat(LogDiscovery.discover(List.of(root), flat)).isEqualTo(LogDiscovery.discover(List.of(root), conf));
  }

  @Test
  void globsWorkOnHdfs() throws IOException {
    Discovery found = LogDiscovery.discover(List.of(root + "/*/app-*", root + "/eventlog_v2_*"), conf);

    assertThat(found.logs()).extracting(EventLogSource::path)
        .containsExactly(root + "/eventlog_v2_app-3", root + "/nested/app-2.inprogress", root + "/old/app-4");
  }

  @Test
  void missingHdfsPathIsBadInput() {
    assertThatThrownBy(() -> LogDiscovery.discover(List.of(root + "/missing"), conf))
        .isInstanceOf(BadInputException.class)
        .hasMessage("Cannot find event logs: no file matches the input (" + root + "/missing)");
  }
}
