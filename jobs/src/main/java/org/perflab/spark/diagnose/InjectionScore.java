package org.perflab.spark.diagnose;

import static org.apache.spark.sql.functions.array_contains;
import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.countDistinct;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.size;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.when;

import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.perflab.spark.storage.AppKeyColumns;

/**
 * Scores a straggler detector against injected stragglers, per injection type, as the thesis's Table 6 does with
 * the task as the unit (docs/stragglers-corpus.md):
 *
 * <ul>
 *   <li>TPR = injected tasks reported as stragglers ÷ injected tasks;
 *   <li>FPR = other tasks of the same logs reported ÷ other tasks;
 *   <li>cause accuracy = injected stragglers whose {@code causes} contain the expected cause ÷ injected stragglers
 *       reported; for the expected cause {@code NONE} (an injection with no trace in the event log) the right answer
 *       is an empty {@code causes};
 *   <li>cause FPR = other tasks of the same logs reported <em>with a cause</em> ÷ other tasks: the false
 *       attributions, which exclude stragglers reported as unexplained.
 * </ul>
 *
 * <p>Only successful task attempts count. The logs of a type are the application attempts with a task its ground
 * truth labels; another type's injected tasks in those logs are neither injected nor other for it. Ground truth
 * matches tasks on {@code log_id} and {@code app_id} where given, stage, stage attempt where given and partition
 * index ({@link GroundTruth#sameApplication}); reports match tasks on {@code app_id}, {@code app_attempt_id} and
 * {@code task_id}, so app ids must be unique in the corpus.
 */
public final class InjectionScore {
  /** The {@code expected_cause} the report shows for an injection with no expected cause (an empty one is right). */
  public static final String NO_CAUSE = GroundTruth.NO_CAUSE;

  private InjectionScore() {}

  /**
   * One row per injection type, sorted by type: {@code detector}, {@code injection}, {@code expected_cause},
   * {@code logs}, {@code injected_tasks}, {@code injected_reported}, {@code other_tasks}, {@code other_reported},
   * {@code cause_correct} (counts), {@code tpr}, {@code fpr}, {@code cause_accuracy} (fractions in [0, 1]; null when
   * the denominator is 0), {@code other_attributed} (count: other tasks reported with a non-empty {@code causes}) and
   * {@code cause_fpr} (fraction, {@code other_attributed / other_tasks}).
   *
   * @param detector a label for the report, e.g. {@code bigroots} or {@code pcc}
   * @param tasks the ingest {@code tasks} table
   * @param groundTruth rows of {@link GroundTruth#SCHEMA}, as {@link GroundTruth#read} returns them
   * @param stragglers the detector's report: {@code app_id, app_attempt_id, task_id, causes array<string>}
   */
  public static Dataset<Row> score(
      String detector, Dataset<Row> tasks, Dataset<Row> groundTruth, Dataset<Row> stragglers) {
    Dataset<Row> judged = judgedTasks(tasks, groundTruth, stragglers);
    Column injected = col("truth_injection").equalTo(col("injection"));
    Column other = col("truth_injection").isNull();
    Column reported = col("reported").isNotNull();
    Column rightCause = when(col("expected_cause").isNull(), size(col("causes")).equalTo(0))
        .otherwise(array_contains(col("causes"), col("expected_cause")));
    return judged
        .groupBy("injection", "expected_cause")
        .agg(countDistinct("app_id", "app_attempt_id").as("logs"),
            countIf(injected).as("injected_tasks"),
            countIf(injected.and(reported)).as("injected_reported"),
            countIf(other).as("other_tasks"),
            countIf(other.and(reported)).as("other_reported"),
            countIf(injected.and(reported).and(rightCause)).as("cause_correct"),
            countIf(other.and(reported).and(size(col("causes")).gt(0))).as("other_attributed"))
        .select(lit(detector).as("detector"), col("injection"),
            coalesce(col("expected_cause"), lit(NO_CAUSE)).as("expected_cause"), col("logs"),
            col("injected_tasks"), col("injected_reported"), col("other_tasks"), col("other_reported"),
            col("cause_correct"),
            ratio("injected_reported", "injected_tasks").as("tpr"),
            ratio("other_reported", "other_tasks").as("fpr"),
            ratio("cause_correct", "injected_reported").as("cause_accuracy"), col("other_attributed"),
            ratio("other_attributed", "other_tasks").as("cause_fpr"))
        .orderBy("injection");
  }

  /**
   * Every successful task of every application attempt a type's ground truth names, once per such type
   * ({@code injection}, {@code expected_cause}), with its own injection ({@code truth_injection}, null when not
   * injected) and the detector's {@code causes} (null when not reported).
   */
  private static Dataset<Row> judgedTasks(Dataset<Row> tasks, Dataset<Row> groundTruth, Dataset<Row> stragglers) {
    Dataset<Row> successful = tasks.filter(col("status").equalTo("SUCCESS"))
        .select("log_id", "app_id", "app_attempt_id", "stage_id", "stage_attempt_id", "task_index", "task_id");
    Dataset<Row> injectedTasks = injectedTasks(successful, groundTruth);
    Dataset<Row> logsOfType = injectedTasks.select("app_id", "app_attempt_id", "injection", "expected_cause")
        .distinct();
    Dataset<Row> truth = injectedTasks.select(col("app_id"), col("app_attempt_id"), col("task_id"),
        col("injection").as("truth_injection")).dropDuplicates("app_id", "app_attempt_id", "task_id");
    Dataset<Row> reports = stragglers
        .select(col("app_id"), col("app_attempt_id"), col("task_id"), col("causes"), lit(true).as("reported"))
        .dropDuplicates("app_id", "app_attempt_id", "task_id");
    return successful
        .join(logsOfType, AppKeyColumns.joinNames(List.of("app_id", "app_attempt_id")))
        .join(truth, AppKeyColumns.joinNames(List.of("app_id", "app_attempt_id", "task_id")), "left")
        .join(reports, AppKeyColumns.joinNames(List.of("app_id", "app_attempt_id", "task_id")), "left");
  }

  /**
   * The successful task attempts the ground truth labels, with its {@code injection} and {@code expected_cause}:
   * matched on log id and app id where given, stage, stage attempt where given, and partition index.
   */
  private static Dataset<Row> injectedTasks(Dataset<Row> successful, Dataset<Row> groundTruth) {
    Dataset<Row> gt = groundTruth.select(col("log_id").as("gt_log_id"), col("app_id").as("gt_app_id"),
        col("stage_id").as("gt_stage_id"), col("stage_attempt_id").as("gt_stage_attempt_id"),
        col("task_index").as("gt_task_index"), col("injection"), col("expected_cause"));
    Column task = GroundTruth.sameApplication(successful, gt.col("gt_log_id"), gt.col("gt_app_id"))
        .and(successful.col("stage_id").equalTo(gt.col("gt_stage_id")))
        .and(gt.col("gt_stage_attempt_id").isNull()
            .or(successful.col("stage_attempt_id").equalTo(gt.col("gt_stage_attempt_id"))))
        .and(successful.col("task_index").equalTo(gt.col("gt_task_index")));
    return successful.join(gt, task).select("app_id", "app_attempt_id", "task_id", "injection", "expected_cause");
  }

  /**
   * The scores as a Markdown table in the layout of the thesis's Table 6, rates in percent with two decimals and
   * counts beside them, {@code -} where a rate has no denominator. Takes the collected rows of {@link #score}.
   */
  public static String report(List<Row> scores) {
    StringBuilder table = new StringBuilder(
        "| detector | injection | expected cause | logs | TPR (%) | injected reported / all | FPR (%) "
            + "| other reported / all | cause accuracy (%) | right cause / reported | cause FPR (%) "
            + "| other with a cause / all |\n"
            + "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for (Row row : scores) {
      table.append(String.format(Locale.ROOT, "| %s | %s | %s | %d | %s | %d / %d | %s | %d / %d | %s | %d / %d | %s | %d / %d |%n",
          row.<String>getAs("detector"), row.<String>getAs("injection"), row.<String>getAs("expected_cause"),
          row.<Long>getAs("logs"), percent(row.getAs("tpr")), row.<Long>getAs("injected_reported"),
          row.<Long>getAs("injected_tasks"), percent(row.getAs("fpr")), row.<Long>getAs("other_reported"),
          row.<Long>getAs("other_tasks"), percent(row.getAs("cause_accuracy")), row.<Long>getAs("cause_correct"),
          row.<Long>getAs("injected_reported"), percent(row.getAs("cause_fpr")),
          row.<Long>getAs("other_attributed"), row.<Long>getAs("other_tasks")));
    }
    return table.toString();
  }

  private static String percent(Double rate) {
    return rate == null ? "-" : String.format(Locale.ROOT, "%.2f", 100 * rate);
  }

  private static Column countIf(Column condition) {
    return sum(when(condition, 1L).otherwise(0L));
  }

  private static Column ratio(String numerator, String denominator) {
    return when(col(denominator).gt(0), col(numerator).cast("double").divide(col(denominator)));
  }
}
