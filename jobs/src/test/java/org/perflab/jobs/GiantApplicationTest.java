package org.perflab.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.dagmodel.SampleMode;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.jobs.bench.GiantLog;
import org.perflab.sim.Distribution;
import org.perflab.sim.Model;
import org.perflab.sim.ModelReader;
import org.perflab.sim.Stage;
import org.perflab.spark.ingest.Ingest;
import org.perflab.spark.ingest.IngestOptions;
import org.perflab.spark.ingest.SparkTestSession;
import org.perflab.spark.model.StageTaskSamples;
import org.perflab.spark.report.Report;
import org.perflab.spark.report.ReportOptions;

/**
 * An application of 100,000 tasks ({@link GiantLog}, expanded from a bundled sample) through ingest, {@code model},
 * {@code memory} and {@code report} on the shared {@code local[2]} session: its log reconciles, its model keeps at most
 * {@link StageTaskSamples#DEFAULT_BOUND} durations per stage while counting every task, its memory recommendation
 * replays a sample of its partition indices, a second run of each finds nothing changed, and its report page stays
 * under 5 MB. The million-task nightly is a benchmark (bench/run giant-app), not a test.
 */
class GiantApplicationTest {
  private static final long TASKS = 100_000;
  private static final String APP_ID = "local-1900000000026";

  @TempDir
  Path dir;

  @Test
  void aHundredThousandTaskApplicationGoesThroughEveryJobWithBoundedState() throws Exception {
    SparkSession spark = SparkTestSession.get();
    Path logs = dir.resolve("logs");
    GiantLog.template(Scripts.repository().resolve("samples/spark-events/local-1795305472854"))
        .write(logs, APP_ID, TASKS);
    String root = dir.resolve("tables").toString();
    new Ingest(spark, new IngestOptions(List.of(logs.toString()), root, false, Redactor.DEFAULT_PATTERN, 0),
        Clock.systemUTC()).run();
    Row status = spark.read().format("delta").load(root + "/ingest_status").first();
    assertThat(status.<String>getAs("status")).isEqualTo("OK");
    assertThat(status.<Boolean>getAs("tasks_reconciled")).isTrue();
    assertThat(spark.read().format("delta").load(root + "/tasks").count()).isEqualTo(TASKS);

    model(spark, root);
    Row model = spark.read().format("delta").load(root + "/dag_models").first();
    assertThat(model.<String>getAs("status")).isEqualTo("OK");
    assertThat(model.<Long>getAs("tasks")).as("every task, and one per delay stage").isBetween(TASKS, TASKS + 20);
    Model m = ModelReader.parse(model.getAs("model_json"), APP_ID);
    List<Stage> taskStages = m.stages().stream().filter(s -> s.name().matches("S\\d+")).toList();
    assertThat(taskStages).isNotEmpty().allSatisfy(s -> assertThat(((Distribution.Replay) s.distribution())
        .samples().length).isBetween(1, StageTaskSamples.DEFAULT_BOUND));
    assertThat(taskStages.stream().mapToLong(Stage::tasks).sum()).isEqualTo(TASKS);
    assertThat(model.<String>getAs("model_json").length()).isLessThan(1_000_000);
    assertThat(model(spark, root)).as("a second run models nothing new").isZero();

    MemoryJob.run(spark, new MemoryJob.Options(root, root, 1.5, 0, 53));
    Row memory = spark.read().format("delta").load(root + "/memory_recommendations")
        .where("scope = 'application'").first();
    assertThat(memory.<String>getAs("reason")).isNull();
    assertThat(memory.<Long>getAs("executor_memory_bytes")).isPositive();
    assertThat(memory.<String>getAs("evidence")).contains("the tasks of a sample of partition indices were replayed");

    Path site = dir.resolve("site");
    Report.run(spark, new ReportOptions(root, site.toString(), List.of(APP_ID), 20), Clock.systemUTC());
    try (Stream<Path> pages = Files.walk(site.resolve("report"))) {
      List<Path> appPages = pages.filter(p -> p.toString().contains("/apps/")).toList();
      assertThat(appPages).isNotEmpty().allSatisfy(p -> assertThat(Files.size(p)).isLessThan(5_000_000L));
      for (Path page : appPages) {
        System.out.printf("giant application: page %s %d bytes; model_json %d chars%n", page.getFileName(),
            Files.size(page), model.<String>getAs("model_json").length());
      }
    }
  }

  /** {@code model} of the tables under {@code root} into {@code root}; the models built. */
  private static long model(SparkSession spark, String root) {
    return ModelJob.run(spark, new ModelJob.Options(root, root, SampleMode.REPLAY, 1, false, 1L)).models();
  }
}
