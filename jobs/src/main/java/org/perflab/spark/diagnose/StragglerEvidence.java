package org.perflab.spark.diagnose;

import static org.apache.spark.sql.functions.array;
import static org.apache.spark.sql.functions.avg;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.covar_pop;
import static org.apache.spark.sql.functions.stddev_pop;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.median;
import static org.apache.spark.sql.functions.percentile_approx;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.try_divide;
import static org.apache.spark.sql.functions.when;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.perflab.spark.storage.AppKeyColumns;
import org.perflab.stragglers.Category;
import org.perflab.stragglers.Feature;

/**
 * Detects stragglers and gathers what the rules compare them to, with aggregations and joins only (no task row
 * reaches the driver). Input: {@link TaskFeatures} rows with the resource columns of {@link ResourceFeatures}.
 * Output: one row per straggler, with its stage's median and, per feature of {@link #FEATURES} (arrays in that
 * order), its normalised value, its peers' mean (the stage's other successful tasks), the stage's correlation with
 * duration, the application's quantiles at each of {@code levels}, and the edge windows of resource features; plus the
 * locality sums of the stage's normal tasks, its host's tasks of the application with the sum of their log
 * durations over their stages' medians ({@link org.perflab.stragglers.HostEvidence}), and whether it was among its
 * executor's first tasks with its stage's warm and cold tasks ({@link org.perflab.stragglers.ColdEvidence}).
 */
public final class StragglerEvidence {
  /** The features with a numeric value, in the order of the evidence arrays (every feature but locality). */
  public static final List<Feature> FEATURES =
      Arrays.stream(Feature.values()).filter(f -> f.category() != Category.LOCALITY).toList();

  /** A stage's key columns ({@link TaskFeatures#STAGE_KEY}). */
  private static final List<String> STAGE = List.of(TaskFeatures.STAGE_KEY);

  /** Relative rank error of percentile_approx: 1/10,000, exact for applications of up to 10,000 tasks. */
  static final int QUANTILE_ACCURACY = 10_000;

  private StragglerEvidence() {}

  /** The stragglers of {@code features} (duration > factor × stage median) with their evidence. */
  public static Dataset<Row> of(Dataset<Row> features, double stragglerFactor, List<Double> levels) {
    Dataset<Row> tasks = cold(normalised(features, stragglerFactor));
    Dataset<Row> stages = tasks.groupBy(AppKeyColumns.columns(STAGE)).agg(stageSums().get(0),
        stageSums().subList(1, stageSums().size()).toArray(Column[]::new));
    Dataset<Row> apps = tasks.groupBy(AppKeyColumns.with()).agg(quantiles(levels).get(0),
        quantiles(levels).subList(1, FEATURES.size()).toArray(Column[]::new));
    List<String> hostKey = AppKeyColumns.names("host");
    Dataset<Row> hosts = tasks.where(col("host").isNotNull().and(col("log_ratio").isNotNull()))
        .groupBy(AppKeyColumns.columns(hostKey))
        .agg(count(lit(1)).as("host_tasks"), sum("log_ratio").as("host_log_sum"));
    return tasks.filter(col("straggler"))
        .join(stages, AppKeyColumns.joinNames(STAGE))
        .join(apps, AppKeyColumns.using())
        .join(hosts, AppKeyColumns.joinNames(hostKey), "left")
        .select(evidenceColumns().toArray(Column[]::new));
  }

  private static String value(Feature f) {
    return "f_" + f.key();
  }

  /** Each task with its stage's median, its normalised features and whether it is a straggler. */
  private static Dataset<Row> normalised(Dataset<Row> features, double factor) {
    List<Column> means = new ArrayList<>();
    means.add(median(col("duration_ms")).as("stage_median_ms"));
    for (Feature f : Feature.of(Category.NUMERIC)) {
      means.add(avg(TaskFeatures.raw(f)).as("mean_" + f.key()));
    }
    Dataset<Row> stages = features.groupBy(AppKeyColumns.columns(STAGE)).agg(count(lit(1)).as("stage_tasks"),
        means.toArray(Column[]::new));
    Dataset<Row> tasks = features.join(stages, AppKeyColumns.joinNames(STAGE));
    for (Feature f : FEATURES) {
      Column raw = col(TaskFeatures.raw(f));
      Column normalised = switch (f.category()) {
        case NUMERIC -> when(col("mean_" + f.key()).gt(0), raw.divide(col("mean_" + f.key()))).otherwise(0.0);
        case TIME -> when(col("duration_ms").gt(0), raw.divide(col("duration_ms"))).otherwise(0.0);
        default -> raw;
      };
      tasks = tasks.withColumn(value(f), normalised);
    }
    return tasks.withColumn("straggler", col("stage_tasks").geq(2).and(col("stage_median_ms").gt(0))
        .and(col("duration_ms").gt(col("stage_median_ms").multiply(factor))))
        // the task's duration over its stage's median, as a natural logarithm: what its host's evidence sums
        .withColumn("log_ratio", when(col("duration_ms").gt(0).and(col("stage_median_ms").gt(0)),
            functions.log(col("duration_ms").divide(col("stage_median_ms")))));
  }

  /**
   * Each task with {@code cold}: launched before its executor finished any of the application's successful tasks
   * ({@link org.perflab.stragglers.ColdEvidence}); false when its executor or launch time is unknown.
   */
  private static Dataset<Row> cold(Dataset<Row> tasks) {
    List<String> executorKey = AppKeyColumns.names("executor_id");
    Dataset<Row> firsts = tasks.where(col("executor_id").isNotNull().and(col("launch_time_ms").isNotNull())
            .and(col("duration_ms").gt(0)))
        .groupBy(AppKeyColumns.columns(executorKey))
        .agg(functions.min(col("launch_time_ms").plus(col("duration_ms"))).as("executor_first_finish_ms"));
    return tasks.join(firsts, AppKeyColumns.joinNames(executorKey), "left")
        .withColumn("cold", functions.coalesce(col("duration_ms").gt(0)
            .and(col("launch_time_ms").lt(col("executor_first_finish_ms"))), lit(false)));
  }

  /**
   * Per stage: per feature its sum, count and correlation with duration; the normal tasks' locality; its warm tasks'
   * count and median duration, and its cold tasks' count and sum of log durations ({@link #cold}).
   */
  private static List<Column> stageSums() {
    List<Column> sums = new ArrayList<>();
    for (Feature f : FEATURES) {
      sums.add(sum(value(f)).as("sum_" + f.key()));
      sums.add(count(value(f)).as("n_" + f.key()));
      // Pearson's ρ as covariance over the product of deviations: Spark's corr divides by zero (ANSI) when a
      // feature is constant over the stage; here that is null (no correlation)
      Column x = col(value(f));
      Column y = col("duration_ms").cast("double");
      sums.add(try_divide(covar_pop(x, y), stddev_pop(x).multiply(stddev_pop(y))).as("corr_" + f.key()));
    }
    sums.add(sum(when(functions.not(col("straggler")), col("locality_code")).otherwise(0)).as("normal_locality_sum"));
    sums.add(sum(when(functions.not(col("straggler")), 1).otherwise(0)).as("normal_tasks"));
    sums.add(count(when(functions.not(col("cold")), lit(1))).as("warm_tasks"));
    sums.add(median(when(functions.not(col("cold")), col("duration_ms"))).as("warm_median_ms"));
    sums.add(count(when(col("cold"), lit(1))).as("cold_tasks"));
    sums.add(sum(when(col("cold"), functions.log(col("duration_ms")))).as("cold_log_sum"));
    return sums;
  }

  /** Per application and feature, the quantiles at {@code levels}. */
  private static List<Column> quantiles(List<Double> levels) {
    Column percentages = array(levels.stream().map(l -> lit(l)).toArray(Column[]::new));
    return FEATURES.stream().map(f -> percentile_approx(col(value(f)), percentages, lit(QUANTILE_ACCURACY))
        .as("q_" + f.key())).toList();
  }

  private static List<Column> evidenceColumns() {
    List<Column> columns = new ArrayList<>(List.of(AppKeyColumns.columns(STAGE)));
    for (String c : TaskFeatures.TASK_COLUMNS) {
      columns.add(col(c));
    }
    columns.add(col("stage_median_ms"));
    columns.add(col("duration_ms").divide(col("stage_median_ms")).as("straggler_factor"));
    columns.add(array(FEATURES.stream().map(f -> col(value(f))).toArray(Column[]::new)).as("values"));
    // try_divide: a resource feature may be measured for this task alone (null, i.e. no peers)
    columns.add(array(FEATURES.stream().map(f -> try_divide(col("sum_" + f.key()).minus(col(value(f))),
        col("n_" + f.key()).minus(1))).toArray(Column[]::new)).as("peer_means"));
    columns.add(array(FEATURES.stream().map(f -> col("corr_" + f.key())).toArray(Column[]::new)).as("correlations"));
    columns.add(array(FEATURES.stream().map(f -> col("q_" + f.key())).toArray(Column[]::new)).as("quantiles"));
    columns.add(array(FEATURES.stream().map(f -> edge(f, "head_")).toArray(Column[]::new)).as("heads"));
    columns.add(array(FEATURES.stream().map(f -> edge(f, "tail_")).toArray(Column[]::new)).as("tails"));
    columns.add(col("locality_code"));
    columns.add(col("normal_locality_sum").cast("double").as("normal_locality_sum"));
    columns.add(col("normal_tasks").cast("long").as("normal_tasks"));
    columns.add(functions.coalesce(col("host_tasks"), lit(0L)).as("host_tasks"));
    columns.add(col("host_log_sum"));
    columns.add(col("log_ratio"));
    columns.add(col("cold"));
    columns.add(col("warm_tasks"));
    columns.add(col("warm_median_ms").cast("double").as("warm_median_ms"));
    columns.add(col("cold_tasks"));
    columns.add(col("cold_log_sum"));
    return columns;
  }

  private static Column edge(Feature f, String prefix) {
    return f.category() == Category.RESOURCE ? col(prefix + f.key()) : lit(null).cast("double");
  }
}
