package org.perflab.jobs.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.perflab.clustering.AdjustedRandIndex;
import org.perflab.spark.clustering.ClusterTables;
import org.perflab.eventlog.fixture.LogFixtures;
import org.perflab.jobs.PerfLab;
import org.perflab.spark.storage.DeltaSessions;
import org.perflab.table.KeyColumns;

/**
 * The adjusted Rand index of {@code cluster}'s clusters against workload labels on real runs: the event logs of
 * {@code <shared>/data/scaling/cems} (docs in its README.md). It copies {@code perFolder} logs of each folder, evenly
 * spaced in name order so that each folder's configurations are all represented, into a temporary directory, runs
 * {@code ingest}, {@code features} and {@code cluster} on {@code local[2]} through the command line, and prints the
 * ARI of the clusters against two labelings: application workload × input-size class (the README's "grouped by
 * application name and input size"), and workload alone. Not a test: it prints figures. Run with
 * {@code bench/run clusters [perFolder]} (default 10).
 */
public final class ScalingClustersBenchmark {
  private ScalingClustersBenchmark() {}

  public static void main(String[] args) throws IOException {
    int perFolder = args.length > 0 ? Integer.parseInt(args[0]) : 10;
    Path cems = LogFixtures.sharedDir().resolve("data/scaling/cems");
    if (!Files.isDirectory(cems)) {
      System.err.println("Cannot run the benchmark: no real runs at " + cems + " (set PERFLAB_SHARED)");
      System.exit(2);
    }
    Path work = Files.createTempDirectory("perflab-clusters");
    Path logs = copySubset(cems, work.resolve("logs"), perFolder);
    String root = work.resolve("out").toString();
    SparkSession spark = DeltaSessions.builder("perflab clusters benchmark").master("local[2]")
        .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "4").getOrCreate();
    step("ingest", "--input", logs.toString(), "--output", root);
    step("features", "--input", root);
    step("cluster", "--input", root);
    report(spark, root);
    spark.stop();
  }

  /** {@code perFolder} logs of each folder of {@code cems}, evenly spaced by name, copied under {@code target}. */
  static Path copySubset(Path cems, Path target, int perFolder) throws IOException {
    List<Path> folders;
    try (Stream<Path> listed = Files.list(cems)) {
      folders = listed.filter(Files::isDirectory).sorted().toList();
    }
    for (Path folder : folders) {
      List<Path> files;
      try (Stream<Path> listed = Files.list(folder)) {
        files = listed.filter(Files::isRegularFile).sorted().toList();
      }
      Path out = Files.createDirectories(target.resolve(folder.getFileName()));
      int take = Math.min(perFolder, files.size());
      for (int i = 0; i < take; i++) {
        Path file = files.get((int) ((long) i * files.size() / take));
        Files.copy(file, out.resolve(file.getFileName()));
      }
      System.out.printf("clusters: %s: %d of %d logs%n", folder.getFileName(), take, files.size());
    }
    return target;
  }

  private static void step(String... args) {
    long started = System.nanoTime();
    int code = PerfLab.run(args);
    System.out.printf(Locale.ROOT, "clusters: %s exit %d after %.1f s%n", args[0], code,
        (System.nanoTime() - started) / 1e9);
    if (code != 0) {
      System.exit(code);
    }
  }

  /** Prints the ARI of the clusters against workload × size class and against workload. */
  static void report(SparkSession spark, String root) {
    List<Row> rows = spark.read().format("delta").load(root + "/" + ClusterTables.APP_CLUSTERS_TABLE)
        .join(spark.read().format("delta").load(root + "/" + ClusterTables.APP_FEATURES)
            .select(KeyColumns.LOG_ID, KeyColumns.APP_ID, KeyColumns.APP_ATTEMPT_ID, "size_class"),
            List.of(KeyColumns.LOG_ID, KeyColumns.APP_ID, KeyColumns.APP_ATTEMPT_ID).toArray(String[]::new))
        .select(ClusterTables.CLUSTER_ID, "workload_id", "size_class").collectAsList();
    List<Object> clusters = new ArrayList<>();
    List<Object> workloadBySize = new ArrayList<>();
    List<Object> workloads = new ArrayList<>();
    for (Row r : rows) {
      clusters.add(r.getInt(0));
      workloadBySize.add(r.getString(1) + " @ size class " + r.get(2));
      workloads.add(r.getString(1));
    }
    System.out.printf(Locale.ROOT, "clusters: %d applications, %d clusters, %d workload × size labels, %d workloads%n",
        rows.size(), clusters.stream().distinct().count(), workloadBySize.stream().distinct().count(),
        workloads.stream().distinct().count());
    System.out.printf(Locale.ROOT, "clusters: ARI vs workload × size class = %.3f%n",
        AdjustedRandIndex.of(clusters, workloadBySize));
    System.out.printf(Locale.ROOT, "clusters: ARI vs workload = %.3f%n", AdjustedRandIndex.of(clusters, workloads));
  }
}
