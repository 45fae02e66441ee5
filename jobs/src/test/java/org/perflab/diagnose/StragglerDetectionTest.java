package org.perflab.diagnose;

import static org.apache.spark.sql.functions.col;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.ingest.Ingest;
import org.perflab.ingest.IngestOptions;
import org.perflab.ingest.SparkTestSession;
import org.perflab.jobs.DiagnoseJob;
import org.perflab.storage.TableStore;
import org.perflab.stragglers.PccThresholds;
import org.perflab.stragglers.Thresholds;
import org.perflab.table.Table;

/**
 * The measurement of issue 10 on the injected-stragglers corpus (docs/stragglers-corpus.md#measured): the corpus
 * ingested once, {@code diagnose --grid-search --ground-truth samples/stragglers/ground-truth.csv} run on it with the
 * default thresholds, and both detectors of its {@code stragglers} table, BigRoots ({@code causes}) and PCC
 * ({@code pcc_causes}), scored per injection type. The tables are printed; the assertions are what the corpus supports.
 */
class StragglerDetectionTest {
  /** The types whose injection leaves a trace in the task metrics. */
  private static final List<String> TRACED = List.of("CPU", "DATA_SKEW", "GC", "SPILL");
  private static final double MIN_TPR = 0.9;
  private static final double MIN_CAUSE_ACCURACY = 0.9;

  @TempDir static Path root;

  private static DiagnoseJob.Summary summary;
  private static Map<String, Row> bigRoots;
  private static Map<String, Row> pcc;
  private static List<Row> grid;

  @BeforeAll
  static void diagnoseCorpus() throws IOException {
    SparkSession spark = SparkTestSession.get();
    Path corpus = Path.of(System.getProperty("user.dir")).toAbsolutePath().getParent().resolve("samples/stragglers");
    String groundTruthCsv = corpus.resolve("ground-truth.csv").toString();
    new Ingest(spark, new IngestOptions(List.of(corpus.toString()), root.toString(), false, Redactor.DEFAULT_PATTERN,
        0), Clock.systemUTC()).run();
    summary = DiagnoseJob.run(spark, new DiagnoseJob.Options(root.toString(), null, Thresholds.defaults(),
        PccThresholds.defaults(), null, false, groundTruthCsv));

    TableStore store = new TableStore(spark, root.toString());
    Dataset<Row> tasks = store.read(Table.TASKS).orElseThrow().cache();
    Dataset<Row> truth = GroundTruth.read(spark, groundTruthCsv).cache();
    Dataset<Row> stragglers = store.read(StragglerTable.NAME).orElseThrow().cache();
    List<Row> bigRootsRows = InjectionScore.score("bigroots", tasks, truth,
        stragglers.select("app_id", "app_attempt_id", "task_id", "causes")).collectAsList();
    List<Row> pccRows = InjectionScore.score("pcc", tasks, truth,
        stragglers.select(col("app_id"), col("app_attempt_id"), col("task_id"), col("pcc_causes").as("causes")))
        .collectAsList();
    bigRoots = byInjection(bigRootsRows);
    pcc = byInjection(pccRows);
    grid = store.read(GridSearch.NAME).orElseThrow().collectAsList();

    System.out.println(InjectionScore.report(bigRootsRows)
        + InjectionScore.report(pccRows).lines().skip(2).map(l -> l + "\n").collect(Collectors.joining()));
    summary.best().forEach(System.out::println);
    System.out.println("diagnose: defaults " + cell("BIGROOTS", Thresholds.DEFAULT_LAMBDA_P,
        Thresholds.DEFAULT_LAMBDA_Q) + "; " + cell("PCC", PccThresholds.DEFAULT_LAMBDA_CA,
        PccThresholds.DEFAULT_LAMBDA_CQ));
  }

  private static Map<String, Row> byInjection(List<Row> rows) {
    return rows.stream().collect(Collectors.toMap(r -> r.<String>getAs("injection"), r -> r));
  }

  /** The grid row of one cell, printed as its counts and rates. */
  private static String cell(String model, double threshold, double quantile) {
    return grid.stream()
        .filter(r -> r.getString(0).equals(model) && Math.abs(r.getDouble(1) - threshold) < 1e-9
            && Math.abs(r.getDouble(2) - quantile) < 1e-9)
        .map(r -> String.format(java.util.Locale.ROOT, "%s(%s, %s) tp=%d fp=%d fn=%d tpr=%.4f fpr=%.4f score=%.4f",
            model, threshold, quantile, r.getLong(3), r.getLong(4), r.getLong(6), r.getDouble(7), r.getDouble(8),
            r.getDouble(10)))
        .findFirst().orElse(model + " cell not in the grid");
  }

  @Test
  void everyInjectedTaskOfATracedTypeIsAStraggler() {
    for (String type : TRACED) {
      assertThat(bigRoots.get(type).<Double>getAs("tpr")).as(type).isGreaterThanOrEqualTo(MIN_TPR);
      assertThat(pcc.get(type).<Double>getAs("tpr")).as(type).isGreaterThanOrEqualTo(MIN_TPR);
    }
  }

  @Test
  void bigRootsNamesTheInjectedCauseOfTracedTypes() {
    for (String type : TRACED) {
      assertThat(bigRoots.get(type).<Double>getAs("cause_accuracy")).as(type)
          .isGreaterThanOrEqualTo(MIN_CAUSE_ACCURACY);
    }
  }

  @Test
  void sleepIsAStragglerWithNoCause() {
    assertThat(bigRoots.get("SLEEP").<Double>getAs("tpr")).isGreaterThanOrEqualTo(MIN_TPR);
    assertThat(bigRoots.get("SLEEP").<Double>getAs("cause_accuracy")).isGreaterThanOrEqualTo(MIN_CAUSE_ACCURACY);
  }

  @Test
  void gridSearchScoresEveryCellAndPicksOneBestPerModel() {
    assertThat(grid).hasSize(210 + 231);
    assertThat(grid.stream().filter(r -> r.<Boolean>getAs("best")).map(r -> r.getString(0)))
        .containsExactlyInAnyOrder("BIGROOTS", "PCC");
    assertThat(summary.best()).hasSize(2);
  }
}
