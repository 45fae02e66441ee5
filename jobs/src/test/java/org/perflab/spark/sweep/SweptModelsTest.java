package org.perflab.spark.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.perflab.errors.BadInputException;
import org.perflab.spark.ingest.SparkTestSession;

/** The {@code dag_models} queries of a sweep, on hand-built tables whose answers can be read off the rows. */
class SweptModelsTest {
  private static final StructType OLD_TABLE = new StructType()
      .add("log_id", DataTypes.StringType).add("app_id", DataTypes.StringType)
      .add("app_attempt_id", DataTypes.StringType).add("status", DataTypes.StringType)
      .add("model_json", DataTypes.StringType);
  private static final StructType TABLE = OLD_TABLE.add("workload_id", DataTypes.StringType)
      .add("size_class", DataTypes.IntegerType).add("input_bytes", DataTypes.LongType);

  private static Dataset<Row> table(StructType schema, List<Row> rows) {
    SparkSession spark = SparkTestSession.get();
    return spark.createDataFrame(rows, schema);
  }

  private static Row row(String log, String app, String attempt, String status, String workload, int sizeClass,
      Long inputBytes) {
    return RowFactory.create(log, app, attempt, status, "{" + log + "}", workload, sizeClass, inputBytes);
  }

  /** Three attempts of app-1 (the third failed), one of app-2 and one of app-3. */
  private static Dataset<Row> attempts() {
    return table(TABLE, List.of(
        row("log-a1", "app-1", "1", "OK", "sort", 30, 100L),
        row("log-a2", "app-1", "2", "OK", "sort", 30, 200L),
        row("log-a3", "app-1", "3", "FAILED", "sort", 30, 300L),
        row("log-b1", "app-2", "1", "OK", "join", 30, 400L),
        row("log-c1", "app-3", "1", "OK", "join", 31, 500L)));
  }

  @Test
  void theLastOkAttemptOfTheApplicationIsTheOneSwept() {
    Dataset<Row> models = attempts();

    List<Row> rows = SweptModels.lastOkAttempt(models, "app-1").collectAsList();

    // attempt 3 failed: attempt 2 is the last OK one; app-2's rows are not app-1's
    assertThat(rows).hasSize(1);
    assertThat(rows.get(0).<String>getAs("log_id")).isEqualTo("log-a2");
    assertThat(rows.get(0).<String>getAs("model_json")).isEqualTo("{log-a2}");
    assertThat(rows.get(0).<String>getAs("workload_id")).isEqualTo("sort");
    assertThat(rows.get(0).<Long>getAs("input_bytes")).isEqualTo(200L);
    assertThat(SweptModels.lastOkAttempt(models, "app-9").count()).as("no model of app-9").isZero();
  }

  @Test
  void theModelsOfSeveralApplicationsReadAtOnceAreEachTheirLastOkAttempt() {
    SweptModels.Models read = SweptModels.models(attempts(), "root/dag_models", List.of("app-1", "app-2", "app-9"));

    // app-1's attempt 3 failed: attempt 2; app-3 was not asked for; app-9 has no model
    assertThat(read.lastOkAttempt("app-1").<String>getAs("log_id")).isEqualTo("log-a2");
    assertThat(read.lastOkAttempt("app-1").<Long>getAs("input_bytes")).isEqualTo(200L);
    assertThat(read.lastOkAttempt("app-2").<String>getAs("log_id")).isEqualTo("log-b1");
    assertThat(read.lastOkAttempt("app-2").<String>getAs("workload_id")).isEqualTo("join");
    assertThat(read.lastOkAttempt("app-3")).as("not asked for").isNull();
    assertThatThrownBy(() -> read.model("app-9")).isInstanceOf(BadInputException.class)
        .hasMessage("Cannot sweep: root/dag_models has no model of application app-9 (status OK)");
  }

  @Test
  void aTableWrittenBeforeTheWorkloadAndInputColumnsGivesThemNull() {
    Dataset<Row> models = table(OLD_TABLE, List.of(RowFactory.create("log-a1", "app-1", "1", "OK", "{}")));

    Row row = SweptModels.lastOkAttempt(models, "app-1").first();

    assertThat(row.<String>getAs("log_id")).isEqualTo("log-a1");
    assertThat(row.<String>getAs("workload_id")).isNull();
    assertThat(row.<Long>getAs("input_bytes")).isNull();
    assertThat(SweptModels.latestPerWorkload(models).count()).as("no workloads to sweep").isZero();
  }

  @Test
  void eachWorkloadAndSizeClassSweepsItsGreatestOkAppId() {
    Dataset<Row> models = table(TABLE, List.of(
        row("l1", "app-1", "1", "OK", "sort", 30, 1L),
        row("l2", "app-2", "1", "OK", "sort", 30, 1L),
        row("l3", "app-3", "1", "FAILED", "sort", 30, 1L),
        row("l4", "app-4", "1", "OK", "sort", 31, 1L),
        row("l5", "app-0", "1", "OK", "join", 30, 1L),
        row("l6", "app-5", "1", "OK", null, 30, 1L)));

    // sort/30: app-3 failed, so app-2; sort/31: app-4; join/30: app-0; app-5 has no workload; in app id order
    assertThat(SweptModels.latestPerWorkload(models).collectAsList()).extracting(r -> r.getString(0))
        .containsExactly("app-0", "app-2", "app-4");
  }
}
