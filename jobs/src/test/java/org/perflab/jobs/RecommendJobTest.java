package org.perflab.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.perflab.table.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.spark.features.FeatureTables;
import org.perflab.spark.ingest.SparkTestSession;
import org.perflab.recommend.Objective;
import org.perflab.recommend.Prices;
import org.perflab.spark.recommend.RecommendTables;
import org.perflab.spark.storage.TableStore;

/**
 * {@code recommend} on test-built tables. Workload {@code amdahl}: 1 GB at 1, 2, 4 and 8 executors of 2 cores,
 * 100 × (0.5 + 0.5 ÷ cores) s, so 75, 62.5, 56.25 and 53.125 s; its {@code memory_recommendations} row sets 6 GiB and
 * 1 GiB of overhead, and its {@code app_features} shows 2 GiB of shuffle. Within 10 % of the fastest (58.4 s) the
 * cheapest is 4 executors (450 core-s against 850 at 8); a 70 s deadline is met by 2 (250 core-s). Workload
 * {@code broken} has no executor information; {@code swept} has one configuration, too few for a harness predictor,
 * and two {@code sweep_results} points.
 */
class RecommendJobTest {
  private static final long GIB = 1L << 30;
  private static final long GB = 1_000_000_000L;

  @TempDir
  static Path dir;

  private static SparkSession spark;
  private static String root;
  private static int logs;

  @BeforeAll
  static void buildTheTables() {
    spark = SparkTestSession.get();
    root = dir.resolve("root").toString();
    List<Row> runs = new ArrayList<>();
    for (int n : new int[] {1, 2, 4, 8}) {
      for (double spread : new double[] {0.99, 1.0, 1.01}) {
        runs.add(run("amdahl", n, 100 * (0.5 + 0.5 / (2 * n)) * spread));
      }
    }
    runs.add(run("broken", null, 30));
    runs.add(run("broken", null, 31));
    String sweptLog = "log-swept-" + logs;
    runs.add(run("swept", 2, 40));
    // The swept workload ran on Spark 1.5: its arguments use that version's keys.
    write("applications", List.of(RowFactory.create(Table.APPLICATIONS.newRow().set("log_id", sweptLog)
        .set("app_id", "app").set("app_attempt_id", "1").set("start_time_ms", 1L).set("spark_version", "1.5.1")
        .values())), Table.APPLICATIONS.schema());
    write(FeatureTables.WORKLOADS_TABLE, runs, FeatureTables.WORKLOADS);
    // swept's row has no recommendation: the measured memory stands, with the row's reason
    write("memory_recommendations", List.of(RowFactory.create("workload", "amdahl", 6 * GIB, GIB, "A", null),
        RowFactory.create("workload", "swept", null, null, "A", "no application of the workload has a recommendation")),
        new StructType().add("scope", DataTypes.StringType).add("workload_id", DataTypes.StringType)
            .add("executor_memory_bytes", DataTypes.LongType).add("memory_overhead_bytes", DataTypes.LongType)
            .add("tier", DataTypes.StringType).add("reason", DataTypes.StringType));
    write(FeatureTables.APP_FEATURES_TABLE, List.of(RowFactory.create("amdahl", 30, 2 * GIB)), new StructType()
        .add("workload_id", DataTypes.StringType).add("size_class", DataTypes.IntegerType)
        .add("shuffle_read_bytes", DataTypes.LongType));
    StructType sweep = new StructType().add("log_id", DataTypes.StringType).add("workload_id", DataTypes.StringType)
        .add("executors", DataTypes.IntegerType).add("cores_per_executor", DataTypes.IntegerType)
        .add("executor_memory_gb", DataTypes.DoubleType).add("input_bytes", DataTypes.LongType)
        .add("mean_s", DataTypes.DoubleType).add("p50_s", DataTypes.DoubleType).add("p90_s", DataTypes.DoubleType)
        .add("codec", DataTypes.StringType).add("rule", DataTypes.StringType);
    // The nightly's baseline sweep, and a phase-cost sweep of the same log with the run's codec and zstd: zstd
    // predicted faster than the run's own codec at 2 × 2. The point 2 × 2 at the run's codec was swept by both rules;
    // the phase-cost row (42 s) stands for it.
    write("sweep_results", List.of(
        RowFactory.create(sweptLog, "swept", 2, 2, 4.0, null, 40.0, 39.0, 44.0, null, "baseline"),
        RowFactory.create(sweptLog, "swept", 4, 2, 4.0, null, 38.0, 37.0, 41.0, null, "baseline"),
        RowFactory.create(sweptLog, "swept", 2, 2, 4.0, null, 42.0, 41.0, 46.0, null, "phase-cost"),
        RowFactory.create(sweptLog, "swept", 2, 2, 4.0, null, 36.0, 35.0, 40.0, "zstd", "phase-cost")), sweep);
  }

  @Test
  void theDefaultObjectiveRecommendsTheCheapestNearTheFastestWithTheRecommendedMemory() {
    RecommendJob.Summary summary = RecommendJob.run(spark, options(Objective.cheapestNearFastest(),
        Prices.coreHoursOnly()));
    List<Row> rows = rows();
    assertThat(summary.rows()).isEqualTo(3);
    assertThat(summary.withoutRecommendation()).isEqualTo(1);

    Row amdahl = row(rows, "amdahl");
    assertThat(amdahl.<Integer>getAs("executors")).isEqualTo(4);
    assertThat(amdahl.<Integer>getAs("cores_per_executor")).isEqualTo(2);
    assertThat(amdahl.<Long>getAs("executor_memory_bytes")).isEqualTo(6 * GIB);
    assertThat(amdahl.<Double>getAs("predicted_s")).isCloseTo(56.25, within(0.6));
    assertThat(amdahl.<Double>getAs("predicted_high_s")).isGreaterThanOrEqualTo(amdahl.<Double>getAs("predicted_s")
        * 0.98);
    double predicted = amdahl.getAs("predicted_s");
    assertThat(amdahl.<Double>getAs("core_hours")).isCloseTo(8 * predicted / 3600, within(1e-9));
    assertThat(amdahl.<Double>getAs("gb_hours")).isCloseTo(4 * 7 * predicted / 3600, within(1e-9));
    assertThat(amdahl.<Double>getAs("cost")).isEqualTo(amdahl.<Double>getAs("core_hours"));
    assertThat(amdahl.<String>getAs("cost_unit")).isEqualTo("core_hours");
    // 2 GiB of shuffle = 16 partitions of 128 MiB, two waves of 8 cores.
    assertThat(amdahl.<Integer>getAs("shuffle_partitions")).isEqualTo(16);
    assertThat(amdahl.<Integer>getAs("min_executors")).isEqualTo(2);
    assertThat(amdahl.<Integer>getAs("max_executors")).isEqualTo(4);
    assertThat(amdahl.<String>getAs("spark_submit_args")).contains("--executor-cores 2", "--executor-memory 6144m",
        "spark.executor.instances=4", "spark.executor.memoryOverhead=1024m", "spark.sql.shuffle.partitions=16",
        "spark.dynamicAllocation.maxExecutors=4");
    assertThat(amdahl.<String>getAs("evidence")).contains("chosen now by the harness", "memory_recommendations, tier A");
    assertThat(amdahl.<String>getAs("reason")).isNull();

    Row broken = row(rows, "broken");
    assertThat(broken.<Integer>getAs("executors")).isNull();
    assertThat(broken.<String>getAs("reason")).startsWith("Cannot recommend a configuration: none of the "
        + "workload's 2 runs of this class completed with a duration and executor information");

    Row swept = row(rows, "swept");
    assertThat(swept.<String>getAs("predictor")).isEqualTo("sweep:mean");
    // The fastest is 36 s, 2 executors with zstd (144 core-s); 38 s at 4 (304) and 42 s at 2 with the run's codec
    // (168) are dearer.
    assertThat(swept.<Integer>getAs("executors")).isEqualTo(2);
    assertThat(swept.<Double>getAs("predicted_s")).isEqualTo(36.0);
    assertThat(swept.<Double>getAs("predicted_high_s")).isEqualTo(40.0);
    assertThat(swept.<Double>getAs("predicted_low_s")).isEqualTo(30.0);
    assertThat(swept.<String>getAs("spark_submit_args")).contains("--conf spark.io.compression.codec=zstd",
        "--conf spark.shuffle.service.enabled=true").doesNotContain("shuffleTracking");
    assertThat(amdahl.<String>getAs("spark_submit_args")).as("no version known: today's keys")
        .contains("spark.dynamicAllocation.shuffleTracking.enabled=true");
    assertThat(swept.<String>getAs("evidence")).contains("3 points of this class, rules baseline, phase-cost",
        "memory: observed: the measured configuration's spark.executor.memory (memory_recommendations: no application"
            + " of the workload has a recommendation)");
    assertThat(amdahl.<String>getAs("spark_submit_args")).doesNotContain("spark.io.compression.codec");
  }

  @Test
  void aDeadlineWithPricesPicksTheCheapestThatMeetsItInTheCurrency() {
    RecommendJob.run(spark, options(Objective.of(Optional.of(70.0), Optional.empty()), Prices.of(0.05, 0.01,
        "USD")));
    Row amdahl = row(rows(), "amdahl");
    assertThat(amdahl.<Integer>getAs("executors")).isEqualTo(2);
    assertThat(amdahl.<String>getAs("cost_unit")).isEqualTo("USD");
    assertThat(amdahl.<Double>getAs("cost")).isCloseTo(0.05 * amdahl.<Double>getAs("core_hours")
        + 0.01 * amdahl.<Double>getAs("gb_hours"), within(1e-12));
    assertThat(amdahl.<String>getAs("objective")).isEqualTo("cheapest meeting 70 s at p90");
  }

  @Test
  void negativeOrInconsistentPricesAndBoundsExitTwoNamingTheOption() throws Exception {
    String in = dir.resolve("none").toString();
    assertBad("Cannot price configurations: --price-gb-hour is -0.5 (a finite price >= 0)",
        "--input", in, "--price-gb-hour", "-0.5", "--currency", "USD");
    assertBad("Cannot recommend a configuration: --max-executors is -3 (an integer >= 1)",
        "--input", in, "--max-executors", "-3");
    assertBad("Cannot recommend a configuration: --deadline is 0.0 s (a finite number of seconds > 0)",
        "--input", in, "--deadline", "0");
    Path profile = Files.writeString(dir.resolve("profile.json"), "{\"price_core_hour\": 0.04}");
    assertBad("Cannot price configurations: --currency is missing for the prices given (a currency code such as USD "
        + "or EUR)", "--input", in, "--cluster-profile", profile.toString());
  }

  private static void assertBad(String line, String... args) {
    String[] full = new String[args.length + 1];
    full[0] = "recommend";
    System.arraycopy(args, 0, full, 1, args.length);
    PerfLabTest.Run run = PerfLabTest.perflab(full);
    assertThat(run.exitCode()).as(line).isEqualTo(2);
    assertThat(run.firstErrorLine()).isEqualTo(line);
  }

  private static RecommendJob.Options options(Objective objective, Prices prices) {
    return new RecommendJob.Options(root, root, Optional.empty(), objective, prices, false);
  }

  private static List<Row> rows() {
    return new TableStore(spark, root).read(RecommendTables.RECOMMENDATIONS_TABLE).orElseThrow().collectAsList();
  }

  private static Row row(List<Row> rows, String workload) {
    return rows.stream().filter(r -> r.getAs("workload_id").equals(workload)).findFirst().orElseThrow();
  }

  private static void write(String table, List<Row> rows, StructType schema) {
    spark.createDataFrame(rows, schema).coalesce(1).write().format("delta").save(root + "/" + table);
  }

  private static Row run(String workload, Integer executors, double durationS) {
    return RowFactory.create("log-" + workload + "-" + logs++, "app", "1", workload, workload, "TAG", GB, "TASKS",
        30, executors, 2, executors == null ? null : executors * 2, 4 * GIB, 0L, Math.round(durationS * 1000), true);
  }
}
