package org.perflab.diagnose;

import static org.apache.spark.sql.functions.array_contains;
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
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * Scores a straggler detector against injected stragglers, per injection type, as the thesis's Table 6 does with
 * the task as the unit (docs/stragglers-corpus.md):
 *
 * <ul>
 *   <li>TPR = injected tasks reported as stragglers ÷ injected tasks;
 *   <li>FPR = other tasks of the same logs reported ÷ other tasks;
 *   <li>cause accuracy = injected stragglers whose {@code causes} contain the expected cause ÷ injected stragglers
 *       reported; for the expected cause {@code NONE} (an injection with no trace in the event log) the right answer
 *       is an empty {@code causes}.
 * </ul>
 *
 * <p>Only successful task attempts count. The logs of a type are the applications its ground truth names; another
 * type's injected tasks in those logs are neither injected nor other for it. Ground truth and reports match on
 * {@code app_id} and {@code app_attempt_id} (and stage attempt and partition index, or task id): app ids must be
 * unique in the corpus.
 */
public final class InjectionScore {
  /** The ground-truth CSV's columns, in file order (header line required). */
  public static final StructType GROUND_TRUTH_SCHEMA = new StructType()
      .add("log_file", DataTypes.StringType, false)
      .add("app_id", DataTypes.StringType, false)
      .add("stage_id", DataTypes.IntegerType, false)
      .add("stage_attempt_id", DataTypes.IntegerType, false)
      .add("task_index", DataTypes.IntegerType, false)
      .add("injection", DataTypes.StringType, false)
      .add("expected_cause", DataTypes.StringType, false);
  /** Expected cause of an injection that leaves no trace but run time: the detector should name no cause. */
  public static final String NO_CAUSE = "NONE";

  private InjectionScore() {}

  /** Reads a ground-truth CSV ({@link #GROUND_TRUTH_SCHEMA}, with a header). */
  public static Dataset<Row> readGroundTruth(SparkSession spark, String path) {
    return spark.read().option("header", "true").option("mode", "FAILFAST").schema(GROUND_TRUTH_SCHEMA).csv(path);
  }

  /**
   * One row per injection type, sorted by type: {@code detector}, {@code injection}, {@code expected_cause},
   * {@code logs}, {@code injected_tasks}, {@code injected_reported}, {@code other_tasks}, {@code other_reported},
   * {@code cause_correct} (counts), {@code tpr}, {@code fpr}, {@code cause_accuracy} (fractions in [0, 1]; null when
   * the denominator is 0).
   *
   * @param detector a label for the report, e.g. {@code bigroots} or {@code pcc}
   * @param tasks the ingest {@code tasks} table
   * @param groundTruth rows of {@link #GROUND_TRUTH_SCHEMA}
   * @param stragglers the detector's report: {@code app_id, app_attempt_id, task_id, causes array<string>}
   */
  public static Dataset<Row> score(
      String detector, Dataset<Row> tasks, Dataset<Row> groundTruth, Dataset<Row> stragglers) {
    Dataset<Row> judged = judgedTasks(tasks, groundTruth, stragglers);
    Column injected = col("truth_injection").equalTo(col("injection"));
    Column other = col("truth_injection").isNull();
    Column reported = col("reported").isNotNull();
    Column rightCause = when(col("expected_cause").equalTo(lit(NO_CAUSE)), size(col("causes")).equalTo(0))
        .otherwise(array_contains(col("causes"), col("expected_cause")));
    return judged
        .groupBy("injection", "expected_cause")
        .agg(countDistinct("app_id", "app_attempt_id").as("logs"),
            countIf(injected).as("injected_tasks"),
            countIf(injected.and(reported)).as("injected_reported"),
            countIf(other).as("other_tasks"),
            countIf(other.and(reported)).as("other_reported"),
            countIf(injected.and(reported).and(rightCause)).as("cause_correct"))
        .select(lit(detector).as("detector"), col("injection"), col("expected_cause"), col("logs"),
            col("injected_tasks"), col("injected_reported"), col("other_tasks"), col("other_reported"),
            col("cause_correct"),
            ratio("injected_reported", "injected_tasks").as("tpr"),
            ratio("other_reported", "other_tasks").as("fpr"),
            ratio("cause_correct", "injected_reported").as("cause_accuracy"))
        .orderBy("injection");
  }

  /**
   * Every successful task of every log a type's ground truth names, once per such type ({@code injection},
   * {@code expected_cause}), with its own injection ({@code truth_injection}, null when not injected) and the
   * detector's {@code causes} (null when not reported).
   */
  private static Dataset<Row> judgedTasks(Dataset<Row> tasks, Dataset<Row> groundTruth, Dataset<Row> stragglers) {
    Dataset<Row> logsOfType = groundTruth.select("app_id", "injection", "expected_cause").distinct();
    Dataset<Row> truth = groundTruth.select(col("app_id"), col("stage_id"), col("stage_attempt_id"),
        col("task_index"), col("injection").as("truth_injection")).distinct();
    Dataset<Row> reports = stragglers
        .select(col("app_id"), col("app_attempt_id"), col("task_id"), col("causes"), lit(true).as("reported"))
        .dropDuplicates("app_id", "app_attempt_id", "task_id");
    return tasks.filter(col("status").equalTo("SUCCESS"))
        .select("app_id", "app_attempt_id", "stage_id", "stage_attempt_id", "task_index", "task_id")
        .join(logsOfType, columns("app_id"))
        .join(truth, columns("app_id", "stage_id", "stage_attempt_id", "task_index"), "left")
        .join(reports, columns("app_id", "app_attempt_id", "task_id"), "left");
  }

  private static scala.collection.immutable.Seq<String> columns(String... names) {
    return scala.jdk.javaapi.CollectionConverters.asScala(List.of(names)).toList();
  }

  /**
   * The scores as a Markdown table in the layout of the thesis's Table 6, rates in percent with two decimals and
   * counts beside them, {@code -} where a rate has no denominator. Takes the collected rows of {@link #score}.
   */
  public static String report(List<Row> scores) {
    StringBuilder table = new StringBuilder(
        "| detector | injection | expected cause | logs | TPR (%) | injected reported / all | FPR (%) "
            + "| other reported / all | cause accuracy (%) | right cause / reported |\n"
            + "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for (Row row : scores) {
      table.append(String.format(Locale.ROOT, "| %s | %s | %s | %d | %s | %d / %d | %s | %d / %d | %s | %d / %d |%n",
          row.<String>getAs("detector"), row.<String>getAs("injection"), row.<String>getAs("expected_cause"),
          row.<Long>getAs("logs"), percent(row.getAs("tpr")), row.<Long>getAs("injected_reported"),
          row.<Long>getAs("injected_tasks"), percent(row.getAs("fpr")), row.<Long>getAs("other_reported"),
          row.<Long>getAs("other_tasks"), percent(row.getAs("cause_accuracy")), row.<Long>getAs("cause_correct"),
          row.<Long>getAs("injected_reported")));
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
