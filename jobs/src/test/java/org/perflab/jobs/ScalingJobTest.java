package org.perflab.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.errors.BadInputException;
import org.perflab.spark.features.FeatureTables;
import org.perflab.spark.ingest.SparkTestSession;
import org.perflab.scaling.ErnestFit;
import org.perflab.spark.scaling.ScalingTables;
import org.perflab.spark.storage.TableStore;
import picocli.CommandLine;

/**
 * {@code scaling} on a test-built {@code workloads} table: reference 003's vector V1 at 1 to 16 single-core executors,
 * three runs per count 1 % apart (so that the median is V1's value), at two input sizes; and a workload measured at
 * only two executor counts. Checks the fitted parameters, the notes of what cannot be fitted, Ernest across the two
 * sizes, and the summary.
 */
class ScalingJobTest {
  private static final double[] GRID = {1, 2, 3, 4, 5, 6, 8, 10, 12, 16};
  private static final double[] V1 =
      {623.0, 326.2843, 235.6410, 186.0, 166.7214, 148.9898, 130.5685, 126.2456, 117.2820, 118.5};
  private static final long GIB = 1L << 30;
  private static final double RELATIVE = 1e-5;

  @TempDir
  static Path dir;

  private static SparkSession spark;
  private static Path root;
  private static ScalingJob.Outcome outcome;
  /** The rows of scaling_fits after the first run. */
  private static List<Row> rows;
  private static int logs;

  @BeforeAll
  static void fitTheSyntheticRuns() {
    spark = SparkTestSession.get();
    root = dir.resolve("root");
    List<Row> runs = new ArrayList<>();
    for (int i = 0; i < GRID.length; i++) {
      for (double spread : new double[] {0.99, 1.0, 1.01}) {
        runs.add(run("v1", 1_000_000_000L, (int) GRID[i], 1, GIB, V1[i] * spread, true));
        runs.add(run("v1", 2_000_000_000L, (int) GRID[i], 1, GIB, 2 * V1[i] * spread, true));
      }
    }
    runs.add(run("v1", 1_000_000_000L, 4, 1, GIB, 1e6, false)); // not completed: left out
    runs.add(run("v1", 1_000_000_000L, null, 1, GIB, 1e6, true)); // no total cores: left out
    for (int executors : new int[] {1, 2}) {
      for (double spread : new double[] {0.99, 1.0, 1.01}) {
        runs.add(run("two", 1_000_000_000L, executors, 2, null, 100.0 / executors * spread, true));
      }
    }
    spark.createDataFrame(runs, FeatureTables.WORKLOADS).coalesce(1).write().format("delta")
        .save(root.resolve(FeatureTables.WORKLOADS_TABLE).toString());
    outcome = ScalingJob.run(spark, new ScalingJob.Options(root.toString(), root.toString()));
    rows = fits().collectAsList();
  }

  @Test
  void theTableHasItsDocumentedSchemaAndARowPerSeriesAndModel() {
    Dataset<Row> fits = fits();
    assertThat(fits.schema().fieldNames()).containsExactly(ScalingTables.FITS.fieldNames());
    // Series v1 at 2 sizes and two at 1, 4 laws each; Ernest for v1 and for two.
    assertThat(rows).hasSize(14);
    assertThat(outcome.workloadsComputed()).isFalse();
  }

  @Test
  void eq9IsRecoveredFromTheMedianOfEachExecutorCount() {
    Row sqrt = law("v1", 30, "sqrt");
    // V1's optimum (reference §5.2 C).
    assertRelative(sqrt.getAs("a"), 601.403353);
    assertRelative(sqrt.getAs("b"), 19.929880);
    assertRelative(sqrt.getAs("r2"), 0.99978867);
    assertRelative(sqrt.getAs("n_star"), 15.386060);
    assertThat(sqrt.<String, Double>getJavaMap(sqrt.fieldIndex("params"))).containsOnlyKeys("a", "b");
    assertThat(sqrt.<Integer>getAs("points")).isEqualTo(10);
    assertThat(sqrt.<Long>getAs("runs")).isEqualTo(30L);
    assertThat(sqrt.<Integer>getList(sqrt.fieldIndex("total_cores"))).containsExactly(1, 2, 3, 4, 5, 6, 8, 10, 12, 16);
    assertThat(sqrt.<Double>getAs("t_s")).isNull();
    assertThat(sqrt.<Double>getAs("loo_error_pct")).isPositive().isLessThan(5);
    assertThat(sqrt.<String>getAs("note")).isNull();
    // Twice the runtimes, twice the parameters.
    Row twice = law("v1", 31, "sqrt");
    assertRelative(twice.getAs("a"), 2 * 601.403353);
    assertRelative(twice.getAs("b"), 2 * 19.929880);
    Row amdahl = law("v1", 30, "amdahl");
    assertRelative(amdahl.getAs("t_s"), 610.895007);
    assertRelative(amdahl.getAs("f"), 0.10397378);
    assertThat(amdahl.<Double>getAs("n_star")).as("Amdahl is monotone").isNull();
  }

  @Test
  void bestMarksTheHighestR2OfEachFittedSeries() {
    for (int sizeClass : new int[] {30, 31}) {
      List<Row> laws = rows.stream().filter(r -> r.getAs("workload_id").equals("v1")
          && Integer.valueOf(sizeClass).equals(r.getAs("size_class"))).toList();
      double highest = laws.stream().mapToDouble(r -> r.<Double>getAs("r2")).max().getAsDouble();
      assertThat(laws).filteredOn(r -> r.<Boolean>getAs("best")).singleElement()
          .satisfies(r -> assertThat(r.<String>getAs("model")).isEqualTo("power"))
          .satisfies(r -> assertThat(r.<Double>getAs("r2")).isEqualTo(highest));
    }
  }

  @Test
  void aSeriesAtTwoExecutorCountsGetsNullParametersAndANote() {
    for (String model : new String[] {"amdahl", "gustafson", "sqrt", "power"}) {
      Row row = law("two", 30, model);
      assertThat(row.<Object>getAs("params")).isNull();
      assertThat(row.<Double>getAs("r2")).isNull();
      assertThat(row.<Boolean>getAs("best")).isFalse();
      assertThat(row.<Integer>getAs("points")).isEqualTo(2);
      assertThat(row.<Long>getAs("executor_memory_bytes")).isNull();
      assertThat(row.<String>getAs("note"))
          .isEqualTo("Cannot fit " + model + ": 2 distinct core counts (at least 3)");
    }
    assertThat(ernest("two").<String>getAs("note"))
        .isEqualTo("Cannot fit ernest: 2 distinct (input size, core count) configurations (at least 4)");
  }

  @Test
  void ernestIsFittedAcrossBothSizesOverTheMedianConfigurations() {
    double[] bytes = new double[2 * GRID.length];
    double[] cores = new double[bytes.length];
    double[] runtimes = new double[bytes.length];
    for (int i = 0; i < GRID.length; i++) {
      for (int size = 0; size < 2; size++) {
        int point = 2 * i + size;
        bytes[point] = (size + 1) * 1e9;
        cores[point] = GRID[i];
        runtimes[point] = Math.round((size + 1) * V1[i] * 1000) / 1000.0;
      }
    }
    double[] expected = ErnestFit.fit(bytes, cores, runtimes).theta();
    Row row = ernest("v1");
    Map<String, Double> theta = row.getJavaMap(row.fieldIndex("params"));
    assertThat(theta).containsOnlyKeys("theta0", "theta1", "theta2", "theta3");
    for (int j = 0; j < 4; j++) {
      assertThat(theta.get("theta" + j)).isCloseTo(expected[j], within(1e-9 * (1 + expected[j])));
    }
    assertThat(theta.get("theta1")).as("s per GB per core").isGreaterThan(100);
    assertThat(row.<Integer>getAs("size_class")).isNull();
    assertThat(row.<Integer>getAs("points")).isEqualTo(20);
    assertThat(row.<Boolean>getAs("best")).isFalse();
  }

  @Test
  void theSummaryTalliesTheBestLaws() {
    assertThat(outcome.fits().series()).isEqualTo(3);
    assertThat(outcome.fits().fittedSeries()).isEqualTo(2);
    assertThat(outcome.fits().ernestGroups()).isEqualTo(2);
    assertThat(outcome.fits().ernestFitted()).isEqualTo(1);
    assertThat(outcome.fits().best()).containsExactly(Map.entry("amdahl", 0L), Map.entry("gustafson", 0L),
        Map.entry("sqrt", 0L), Map.entry("power", 2L));
    assertThat(outcome.fits().paperBest()).containsExactly(Map.entry("sqrt", 2L), Map.entry("amdahl", 0L),
        Map.entry("gustafson", 0L));
    assertThat(outcome.fits().lines()).startsWith("scaling: 3 series, 2 fitted (1 with fewer than 3 total core"
        + " counts: null parameters and a note); ernest: 1 of 2 groups fitted")
        .containsPattern("\n  power +2 +- +\\d+\\.\\d\n").containsPattern("\n  sqrt +0 +2 +\\d+\\.\\d\n");
  }

  @Test
  void aRootWithoutIngestTablesIsBadInput() {
    Path empty = dir.resolve("empty");
    ScalingJob job = new ScalingJob();
    new CommandLine(job).parseArgs("--input", empty.toString());
    assertThatThrownBy(job::call).isInstanceOf(BadInputException.class).hasMessage("Cannot fit scaling laws: no"
        + " ingest tables under " + empty + " (run perflab ingest --output " + empty + " first)");
    assertThat(PerfLab.run("scaling", "--input", empty.toString())).isEqualTo(2);
    // Past preflight, without workloads, it would compute them from the ingest tables, which are not there either.
    assertThatThrownBy(() -> ScalingJob.run(spark, new ScalingJob.Options(empty.toString(), empty.toString())))
        .isInstanceOf(BadInputException.class)
        .hasMessageStartingWith("Cannot fit scaling laws: no ingest tables under");
  }

  private static Row run(String workload, long inputBytes, Integer executors, int coresPerExecutor, Long memory,
      double durationS, boolean completed) {
    return RowFactory.create("log-" + workload + "-" + logs++, "app", "1", workload, workload, "TAG",
        inputBytes, "TASKS", (int) Math.round(Math.log(inputBytes) / Math.log(2)), executors, coresPerExecutor,
        executors == null ? null : executors * coresPerExecutor, memory, 0L, Math.round(durationS * 1000), completed);
  }

  private static Dataset<Row> fits() {
    return new TableStore(spark, root.toString()).read(ScalingTables.FITS_TABLE).orElseThrow();
  }

  private static Row law(String workload, int sizeClass, String model) {
    return rows.stream().filter(r -> r.getAs("workload_id").equals(workload)
        && Integer.valueOf(sizeClass).equals(r.getAs("size_class")) && r.getAs("model").equals(model))
        .findFirst().orElseThrow();
  }

  private static Row ernest(String workload) {
    return rows.stream().filter(r -> r.getAs("workload_id").equals(workload) && r.getAs("model").equals("ernest"))
        .findFirst().orElseThrow();
  }

  /** To 1e-5 relative: the medians are V1 rounded to the millisecond. */
  private static void assertRelative(Double actual, double expected) {
    assertThat(actual).isCloseTo(expected, within(Math.abs(expected) * RELATIVE));
  }
}
