package org.perflab.spark.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.commons.io.FileUtils;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.spark.storage.TableStore;
import org.perflab.eventlog.fixture.LogFixtures;
import org.perflab.eventlog.source.LogCompression;
import org.perflab.jobs.PerfLab;
import org.perflab.table.Table;
import org.perflab.testing.SampleLogs;
import org.perflab.testing.SharedData;

/**
 * {@code perflab ingest --input hdfs://...} on a real HDFS (MiniDFSCluster), through the job's command line: an
 * archive mixing every layout and several codecs is ingested completely, tables on HDFS equal those ingested from the
 * same files on the local file system, and {@code --incremental} then skips every log.
 */
class HdfsIngestTest {
  @TempDir static Path work;
  private static MiniDFSCluster cluster;
  private static SparkSession spark;
  private static Path localArchive;
  private static String hdfsArchive;
  private static String hdfsOutput;
  private static int logCount;
  private static int firstRunExitCode;

  @BeforeAll
  static void startHdfsWithAnArchive() throws IOException {
    spark = SparkTestSession.get();
    Configuration clusterConf = new Configuration();
    clusterConf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, work.resolve("dfs").toString());
    cluster = new MiniDFSCluster.Builder(clusterConf).numDataNodes(1).build();
    cluster.waitActive();
    FileSystem fs = cluster.getFileSystem();

    localArchive = work.resolve("archive");
    logCount = buildArchive(localArchive);
    hdfsArchive = fs.getUri() + "/logs/archive";
    hdfsOutput = fs.getUri() + "/tables";
    fs.copyFromLocalFile(new org.apache.hadoop.fs.Path(localArchive.toUri()),
        new org.apache.hadoop.fs.Path(hdfsArchive));
    firstRunExitCode = PerfLab.run("ingest", "--input", hdfsArchive, "--output", hdfsOutput);
  }

  @AfterAll
  static void stopHdfs() {
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  /**
   * The bundled samples (single files, plain and zstd, and rolling zstd directories), then logs derived from a plain
   * log under new application ids: an lz4 single file, a legacy Spark 1.x directory (snappy), a two-part rolling lz4
   * directory and, when the shared data is present, a reference log as it is. Returns the number of logs.
   */
  private static int buildArchive(Path archive) throws IOException {
    FileUtils.copyDirectory(SampleLogs.directory().toFile(), archive.resolve("samples").toFile());
    int count = SampleLogs.discover().size();
    Path derived = archive.resolve("derived");
    List<String> plain = LogFixtures.readLines(SampleLogs.directory().resolve("local-1795305472854"));
    Path shared = SharedData.root().resolve("data/spark-events/local-1422981780767");
    if (Files.isRegularFile(shared)) {
      Files.createDirectories(archive.resolve("reference"));
      Files.copy(shared, archive.resolve("reference").resolve(shared.getFileName()));
      count++;
      plain = LogFixtures.readLines(shared);
    }
    String appId = LogFixtures.appIdOf(plain);
    LogFixtures.singleFile(derived, appId + "-lz4", LogFixtures.withAppId(plain, appId + "-lz4"), LogCompression.LZ4, false);
    LogFixtures.legacyDirectory(derived.resolve("spark-1.x"), appId + "-legacy",
        LogFixtures.withAppId(plain, appId + "-legacy"), LogCompression.SNAPPY, "1.2.0", false);
    LogFixtures.rollingDirectory(derived, appId + "-rolling", LogFixtures.withAppId(plain, appId + "-rolling"),
        LogCompression.LZ4, plain.size() / 2 + 1, false);
    return count + 3;
  }

  private static Dataset<Row> table(String output, Table table) {
    return new TableStore(spark, output).read(table).orElseThrow();
  }

  /** Rows per application attempt: {@code app_id/attempt -> count}. */
  private static Map<String, Long> countsByAttempt(String output, Table table) {
    Map<String, Long> counts = new TreeMap<>();
    table(output, table).groupBy("app_id", "app_attempt_id").count().collectAsList()
        .forEach(row -> counts.put(row.getString(0) + "/" + row.getString(1), row.getLong(2)));
    return counts;
  }

  @Test
  void ingestsAnHdfsArchiveLikeTheSameFilesOnTheLocalFileSystem() {
    String localOutput = work.resolve("local-out").toUri().toString();

    int fromLocal = PerfLab.run("ingest", "--input", localArchive.toUri().toString(), "--output", localOutput);

    assertThat(firstRunExitCode).isZero();
    assertThat(fromLocal).isZero();
    List<Row> status = table(hdfsOutput, Table.INGEST_STATUS).collectAsList();
    assertThat(status).hasSize(logCount);
    assertThat(status).allSatisfy(row -> {
      assertThat(row.<String>getAs("log_path")).startsWith(hdfsArchive + "/");
      assertThat(row.<String>getAs("status")).as(row.<String>getAs("log_path")).isEqualTo("OK");
      assertThat(row.<Long>getAs("bad_lines")).isZero();
    });
    assertThat(status).extracting(row -> row.<String>getAs("layout")).contains(
        "SINGLE_FILE", "ROLLING_DIRECTORY", "LEGACY_DIRECTORY");
    assertThat(status).extracting(row -> row.<String>getAs("codec")).contains("NONE", "ZSTD", "LZ4", "SNAPPY");
    for (Table table : Table.values()) {
      if (table != Table.INGEST_STATUS && table.keys() == Table.Keys.LOG) {
        assertThat(countsByAttempt(hdfsOutput, table)).as(table.tableName())
            .isEqualTo(countsByAttempt(localOutput, table));
      }
    }
    assertThat(countsByAttempt(hdfsOutput, Table.APPLICATIONS)).hasSize(logCount);
    assertThat(table(hdfsOutput, Table.PROPERTY_SETS).count())
        .isEqualTo(table(localOutput, Table.PROPERTY_SETS).count());
    assertThat(table(hdfsOutput, Table.TASKS).count()).isPositive();
    assertThat(table(hdfsOutput, Table.INGEST_STATUS).agg(functions.sum("log_bytes")).first().getLong(0))
        .isEqualTo(table(localOutput, Table.INGEST_STATUS).agg(functions.sum("log_bytes")).first().getLong(0));
  }

  @Test
  void incrementalRunOverTheSameHdfsArchiveSkipsEveryLog() throws IOException {
    String output = hdfsOutput;
    assertThat(firstRunExitCode).isZero();
    long tasks = table(output, Table.TASKS).count();
    List<Row> before = table(output, Table.INGEST_STATUS).orderBy("log_id").collectAsList();

    assertThat(PerfLab.run("ingest", "--input", hdfsArchive, "--output", output, "--incremental")).isZero();

    List<Row> after = table(output, Table.INGEST_STATUS).orderBy("log_id").collectAsList();
    assertThat(after).hasSize(logCount);
    assertThat(after).extracting(row -> row.<Long>getAs("ingested_at_ms")).as("no log was parsed again")
        .isEqualTo(before.stream().map(row -> row.<Long>getAs("ingested_at_ms")).toList());
    assertThat(table(output, Table.TASKS).count()).isEqualTo(tasks);
    String manifest = readHdfs(output + "/" + RunManifest.FILE_NAME);
    assertThat(manifest).contains("\"logsFound\" : " + logCount, "\"logsParsed\" : 0",
        "\"logsUnchanged\" : " + logCount, "\"incremental\" : true");
  }

  private static String readHdfs(String path) throws IOException {
    org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(path);
    try (var in = file.getFileSystem(spark.sparkContext().hadoopConfiguration()).open(file)) {
      return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    }
  }
}
