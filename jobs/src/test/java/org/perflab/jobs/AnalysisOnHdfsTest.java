package org.perflab.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.commons.io.FileUtils;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.spark.ingest.SparkTestSession;
import org.perflab.spark.storage.ChangedLogs;
import org.perflab.spark.storage.TableStore;
import org.perflab.table.Table;
import org.perflab.testing.SampleLogs;

/**
 * The incremental analysis jobs of the nightly pipeline on a real HDFS (MiniDFSCluster: a NameNode and a DataNode),
 * through their command lines: {@code ingest}, then {@code features} and {@code diagnose} read and write Delta tables
 * and their watermarks under an {@code hdfs://} root. The archive is the injected-stragglers corpus, built to show
 * stragglers. A second round with no new logs changes nothing: the incremental jobs are up to date and keep their rows.
 * (Every other job of the night on HDFS, and the samples' row counts against {@code local[2]}, are
 * {@code NightlyClusterIT}'s checks; this class no longer repeats them over the samples.)
 */
class AnalysisOnHdfsTest {
  @TempDir static Path work;
  private static MiniDFSCluster cluster;
  private static SparkSession spark;
  private static FileSystem fs;
  private static String root;
  private static final int[] FIRST_ROUND = new int[3];

  @BeforeAll
  static void ingestAndAnalyseTheCorpusOnHdfs() throws IOException {
    spark = SparkTestSession.get();
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, work.resolve("dfs").toString());
    cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
    cluster.waitActive();
    fs = cluster.getFileSystem();
    Path local = work.resolve("archive");
    FileUtils.copyDirectory(SampleLogs.directory().resolveSibling("stragglers").toFile(),
        local.resolve("stragglers").toFile(), file -> !file.getName().endsWith(".csv"));
    String archive = fs.getUri() + "/logs";
    root = fs.getUri() + "/perflab";
    fs.copyFromLocalFile(new org.apache.hadoop.fs.Path(local.toUri()), new org.apache.hadoop.fs.Path(archive));

    FIRST_ROUND[0] = PerfLab.run("ingest", "--input", archive, "--output", root);
    FIRST_ROUND[1] = PerfLab.run("features", "--input", root);
    FIRST_ROUND[2] = PerfLab.run("diagnose", "--input", root);
  }

  @AfterAll
  static void stopHdfs() {
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  private static Dataset<Row> table(String name) {
    return new TableStore(spark, root).read(name).orElseThrow(() -> new AssertionError("no table " + name));
  }

  @Test
  void ingestFeaturesAndDiagnoseWriteTheirTablesAndWatermarksOnHdfs() throws IOException {
    assertThat(FIRST_ROUND).containsOnly(0);
    long applications = table(Table.APPLICATIONS.tableName()).count();
    assertThat(applications).as("the 5 corpus logs").isEqualTo(5);
    assertThat(table("workloads").count()).isEqualTo(applications);
    assertThat(table("app_features").count()).isEqualTo(applications);
    assertThat(table("stage_features").count()).as("one row per stage attempt, skipped ones included").isEqualTo(
        table(Table.STAGES.tableName()).count());
    assertThat(table("findings").count()).isPositive();
    for (String job : List.of("features", "diagnose")) {
      assertThat(fs.exists(new org.apache.hadoop.fs.Path(root + "/" + ChangedLogs.STATE_DIRECTORY + "/" + job
          + ".json"))).as("watermark of %s on HDFS", job).isTrue();
    }
  }

  @Test
  void stragglersOfTheInjectedCorpusAreFoundAndObeyTheRule() {
    Dataset<Row> stragglers = table("stragglers");
    assertThat(stragglers.count()).isPositive();
    assertThat(stragglers.where("duration_ms <= 1.5 * stage_median_ms").count()).isZero();
    assertThat(table("straggler_causes").count()).isPositive();
  }

  @Test
  void aSecondRoundWithoutNewLogsKeepsEveryRow() {
    long stragglers = table("stragglers").count();
    long findings = table("findings").count();
    long features = table("app_features").count();

    assertThat(PerfLab.run("features", "--input", root)).isZero();
    assertThat(PerfLab.run("diagnose", "--input", root)).isZero();

    assertThat(table("app_features").count()).isEqualTo(features);
    assertThat(table("stragglers").count()).isEqualTo(stragglers);
    assertThat(table("findings").count()).isEqualTo(findings);
  }
}
