package org.perflab.spark.diagnose;

import static org.apache.spark.sql.functions.avg;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.explode;
import static org.apache.spark.sql.functions.floor;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.sequence;
import static org.apache.spark.sql.functions.when;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.perflab.spark.storage.AppKeyColumns;
import org.perflab.stragglers.Feature;

/**
 * Host utilisation per task from OS metrics (reference 002 Eq. 3.1 and the corrected Eq. 3.4): for each resource
 * feature, the mean over the task's seconds ({@code raw_<feature>}), over the {@code t} seconds before it
 * ({@code head_<feature>}) and the {@code t} seconds after it ({@code tail_<feature>}), null where no sample falls.
 * Samples are {@link OsMetrics#SCHEMA} rows joined on host and epoch second; each task is exploded into the seconds
 * of its window, so the join is an equi-join.
 */
public final class ResourceFeatures {
  /** The resource features and the OS-metrics column that feeds each. */
  static final List<Feature> FEATURES = List.of(Feature.HOST_CPU, Feature.HOST_IO, Feature.HOST_NETWORK);

  private ResourceFeatures() {}

  static String metric(Feature f) {
    return switch (f) {
      case HOST_CPU -> OsMetrics.CPU;
      case HOST_IO -> OsMetrics.IO;
      case HOST_NETWORK -> OsMetrics.NETWORK;
      default -> throw new IllegalArgumentException("Cannot measure " + f + ": not a resource feature");
    };
  }

  static String head(Feature f) {
    return "head_" + f.key();
  }

  static String tail(Feature f) {
    return "tail_" + f.key();
  }

  /** The task features with null resource columns: no OS metrics, so RESOURCE_CONTENTION is never reported. */
  public static Dataset<Row> absent(Dataset<Row> features) {
    Dataset<Row> out = features;
    for (Feature f : FEATURES) {
      out = out.withColumn(TaskFeatures.raw(f), lit(null).cast("double"))
          .withColumn(head(f), lit(null).cast("double")).withColumn(tail(f), lit(null).cast("double"));
    }
    return out;
  }

  /** The task features with each task's utilisation during, before and after it, from {@code samples}. */
  public static Dataset<Row> join(Dataset<Row> features, Dataset<Row> samples, int windowS) {
    List<String> taskKey = new ArrayList<>(Arrays.asList(TaskFeatures.STAGE_KEY));
    taskKey.add("task_id");
    Column start = floor(col("launch_time_ms").divide(1000));
    Column end = floor(col("finish_time_ms").divide(1000));
    Dataset<Row> seconds = features.select(taskKey.stream().map(org.apache.spark.sql.functions::col)
            .toArray(Column[]::new))
        .withColumn("host", features.col("host"))
        .withColumn("start_s", start).withColumn("end_s", end)
        .withColumn("epoch_s", explode(sequence(start.minus(windowS), end.plus(windowS))));
    Dataset<Row> joined = seconds.join(samples, AppKeyColumns.joinNames(List.of("host", "epoch_s")));
    List<Column> aggs = new ArrayList<>();
    for (Feature f : FEATURES) {
      Column value = col(metric(f));
      aggs.add(avg(when(col("epoch_s").between(col("start_s"), col("end_s")), value)).as(TaskFeatures.raw(f)));
      aggs.add(avg(when(col("epoch_s").lt(col("start_s")), value)).as(head(f)));
      aggs.add(avg(when(col("epoch_s").gt(col("end_s")), value)).as(tail(f)));
    }
    Dataset<Row> perTask = joined.groupBy(taskKey.stream().map(org.apache.spark.sql.functions::col)
        .toArray(Column[]::new)).agg(aggs.get(0), aggs.subList(1, aggs.size()).toArray(Column[]::new));
    return features.join(perTask, AppKeyColumns.joinNames(taskKey), "left");
  }
}
