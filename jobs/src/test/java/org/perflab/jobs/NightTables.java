package org.perflab.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerEvent;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart;
import org.perflab.jobs.nightly.Pipeline;
import org.perflab.jobs.nightly.SessionSteps;
import org.perflab.jobs.nightly.Step;
import org.perflab.spark.nightly.NightlyRuns;

/**
 * The tables each step of the pipeline declares it reads and writes ({@link Step#reads}, {@link Step#writes}), which
 * decide the steps the night runs at the same time, against what the steps do in a night whose steps run two at a
 * time: every table a step's Spark queries scan or commit to (the locations in their physical plans, by the step's job
 * group) is declared, and every table it committed to is among its writes. {@code NightlyClusterIT} checks its first
 * night on {@code local[2]} over the samples this way (that night runs anyway, as the cluster's reference; a unit test
 * of its own ran a third night over the samples, 54–88 s of the suite).
 */
final class NightTables {
  private final Map<Long, String> plans = new ConcurrentHashMap<>();
  private final Map<Long, Set<String>> groups = new ConcurrentHashMap<>();

  private NightTables() {}

  /**
   * Runs {@code night} (a {@code perflab nightly} in {@code spark}'s application, returning its exit code) while
   * recording the physical plan and the job groups of every SQL execution it starts.
   */
  static Recorded record(SparkSession spark, IntSupplier night) {
    NightTables seen = new NightTables();
    SparkListener listener = new SparkListener() {
      @Override
      public void onJobStart(SparkListenerJobStart job) {
        String execution = job.properties().getProperty("spark.sql.execution.id");
        String group = job.properties().getProperty("spark.jobGroup.id");
        if (execution != null && group != null) {
          seen.groups.computeIfAbsent(Long.parseLong(execution), k -> ConcurrentHashMap.newKeySet()).add(group);
        }
      }

      @Override
      public void onOtherEvent(SparkListenerEvent event) {
        if (event instanceof SparkListenerSQLExecutionStart start) {
          seen.plans.put(start.executionId(), start.physicalPlanDescription());
        }
      }
    };
    spark.sparkContext().addSparkListener(listener);
    try {
      int code = night.getAsInt();
      spark.sparkContext().listenerBus().waitUntilEmpty();
      return new Recorded(code, seen);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException("Cannot record the night's queries: Spark's listener bus did not drain", e);
    } finally {
      spark.sparkContext().removeSparkListener(listener);
    }
  }

  /** A night's exit code and what its queries touched. */
  record Recorded(int exitCode, NightTables seen) {}

  /**
   * Asserts that every table under {@code out} a step's queries touched is declared by the step, and that the night
   * {@code runId} of {@code out}'s {@code nightly_runs} ran every step, each exiting 0, writing only tables it may
   * write, some of them while another ran.
   */
  void assertDeclaredAndTwoAtATime(SparkSession spark, Path out, String runId) {
    Map<String, Set<String>> touched = touchedTables("file:" + out.toAbsolutePath());
    assertThat(touched).as("steps whose queries were seen").containsKeys("features", "diagnose", "report");
    touched.forEach((job, tables) -> {
      Step step = Pipeline.step(job).orElseThrow();
      Set<String> declared = new TreeSet<>(step.reads());
      declared.addAll(step.writes());
      if (!declared.contains(Step.EVERY_TABLE)) {
        assertThat(declared).as(job + "'s declared tables").containsAll(tables);
      }
    });

    List<Row> runs = spark.read().format("delta").load(out.resolve(NightlyRuns.TABLE).toString())
        .where(org.apache.spark.sql.functions.col("run_id").equalTo(runId)).orderBy("started_at").collectAsList();
    assertThat(runs).extracting(r -> r.<String>getAs("step")).containsExactlyInAnyOrderElementsOf(Pipeline.jobs());
    List<double[]> spans = new ArrayList<>();
    for (Row run : runs) {
      String job = run.getAs("step");
      Map<String, Long> rows = run.getJavaMap(run.fieldIndex("rows_written"));
      Step step = Pipeline.step(job).orElseThrow();
      assertThat(rows.keySet()).as(job + "'s tables written").allMatch(step::mayWrite);
      assertThat(run.<Integer>getAs("exit_code")).as(job).isZero();
      double start = run.<java.sql.Timestamp>getAs("started_at").toInstant().toEpochMilli() / 1000.0;
      spans.add(new double[] {start, start + run.<Double>getAs("seconds")});
    }
    assertThat(overlaps(spans)).as("steps that ran while another ran").isPositive();
  }

  /** The tables under {@code root} that each step's queries scanned or wrote, by step, from their physical plans. */
  private Map<String, Set<String>> touchedTables(String root) {
    Pattern location = Pattern.compile(Pattern.quote(root) + "/([A-Za-z0-9_]+)");
    Map<String, Set<String>> touched = new TreeMap<>();
    groups.forEach((execution, names) -> {
      Matcher m = location.matcher(plans.getOrDefault(execution, ""));
      Set<String> tables = new TreeSet<>();
      while (m.find()) {
        if (!m.group(1).startsWith("_")) {
          tables.add(m.group(1));
        }
      }
      for (String group : names) {
        Pipeline.jobs().stream().filter(job -> SessionSteps.jobGroup(job).equals(group)).findFirst()
            .ifPresent(job -> touched.computeIfAbsent(job, k -> new TreeSet<>()).addAll(tables));
      }
    });
    return touched;
  }

  /** How many of {@code spans} (start, end in seconds) overlap another by more than a second. */
  private static long overlaps(List<double[]> spans) {
    return spans.stream().filter(a -> spans.stream().anyMatch(b -> a != b
        && Math.min(a[1], b[1]) - Math.max(a[0], b[0]) > 1.0)).count();
  }
}
