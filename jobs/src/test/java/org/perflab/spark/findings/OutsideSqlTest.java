package org.perflab.spark.findings;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.perflab.findings.Rule;
import org.perflab.spark.features.FeatureTables;
import org.perflab.spark.ingest.SparkTestSession;
import org.perflab.table.RddInfo;
import org.perflab.table.Table;

/**
 * Stage findings on stages that ran outside Spark SQL ({@link OutsideSql}): the same two stages (200 tiny tasks of a
 * small shuffle, which {@code TINY_TASKS} and {@code SHUFFLE_PARTITIONS} flag; 2 tasks on 16 slots for a long time,
 * which {@code TOO_FEW_PARTITIONS} flags, and an input stage it flags too) in applications that differ only in their
 * job's SQL execution, their Spark version and their RDDs' operation scopes, through one {@link Findings#graded} on
 * local[2].
 */
class OutsideSqlTest {
  private static final FindingRows APPS = new FindingRows(FeatureTables.APP_FEATURES);
  private static final FindingRows STAGES = new FindingRows(FeatureTables.STAGE_FEATURES);
  private static final FindingRows STATUS = new FindingRows(Table.INGEST_STATUS.schema());
  private static final FindingRows JOBS = new FindingRows(Table.JOBS.schema());
  private static final FindingRows INGEST_STAGES = new FindingRows(Table.STAGES.schema());
  /** RDD operation scopes, as the RDD API names them. */
  private static final List<String> RDD_API = Arrays.asList("textFile", "map", "reduceByKey");
  /** A SQL query's stage: its operators' scopes, and an RDD method's below them. */
  private static final List<String> SQL_OPERATORS = Arrays.asList("Scan parquet ", "WholeStageCodegen (1)", "Exchange",
      "mapPartitions");
  /** A log before Spark 1.4: no RDD has a scope. */
  private static final List<String> UNSCOPED = Arrays.asList(null, null);
  private static List<Row> found;

  @BeforeAll
  static void computeFindings() {
    application("rdd-4.1", "4.1.0", true, null, null);
    application("rdd-2.2", "2.2.0", true, null, null);
    application("sql-4.1", "4.1.0", true, 0L, RDD_API);
    application("rdd-2.1", "2.1.1", true, null, null);
    application("no-job-4.1", "4.1.0", false, null, null);
    application("rdd-1.5", "1.5.1", true, null, RDD_API);
    application("no-job-scoped-4.1", "4.1.0", false, null, RDD_API);
    application("sql-save-1.5", "1.5.1", true, null, SQL_OPERATORS);
    application("unscoped-1.3", "1.3.1", true, null, UNSCOPED);
    SparkSession spark = SparkTestSession.get();
    found = Findings.graded(new FindingInputs(APPS.frame(spark), STAGES.frame(spark), STATUS.frame(spark),
        new FindingRows(Table.PROPERTIES.schema()).frame(spark), Optional.empty(), Optional.empty(),
        Optional.of(JOBS.frame(spark)), Optional.of(INGEST_STAGES.frame(spark)))).collectAsList();
  }

  /**
   * Stages 3, 4 and 5 (an input stage) of job 7; the job's row only when {@code withJob}, with {@code sqlExecution}
   * (null: none); the stages' rows in ingest's {@code stages} only when {@code scopes} is not null, one RDD per scope.
   */
  private static void application(String app, String version, boolean withJob, Long sqlExecution,
      List<String> scopes) {
    APPS.add(app, "slots", 16);
    STATUS.add(app, "run_id", "R1", "status", "OK", "tasks_reconciled", true, "spark_version", version);
    STAGES.add(app, "stage_id", 3, "stage_attempt_id", 0, "job_id", 7, "num_tasks", 200, "slots", 4,
        "duration_p50_ms", 50.0, "task_time_ms", 10_000L, "shuffle_read_bytes", 1_000_000L);
    STAGES.add(app, "stage_id", 4, "stage_attempt_id", 0, "job_id", 7, "num_tasks", 2, "slots", 16,
        "duration_ms", 100_000L, "shuffle_read_bytes", 1L);
    STAGES.add(app, "stage_id", 5, "stage_attempt_id", 0, "job_id", 7, "num_tasks", 2, "slots", 16,
        "duration_ms", 100_000L, "input_bytes", 1L << 30);
    if (withJob) {
      JOBS.add(app, "job_id", 7, "sql_execution_id", sqlExecution);
    }
    if (scopes != null) {
      List<Row> rdds = new ArrayList<>();
      for (String scope : scopes) {
        rdds.add(rdd(rdds.size(), scope));
      }
      for (int stage = 3; stage <= 5; stage++) {
        INGEST_STAGES.add(app, "stage_id", stage, "stage_attempt_id", 0, "rdds", rdds);
      }
    }
  }

  /** An RDD of ingest's {@code stages.rdds} with its id and scope name, every other field null. */
  private static Row rdd(int id, String scope) {
    Object[] values = new Object[RddInfo.STRUCT.size()];
    values[RddInfo.STRUCT.fieldIndex("rdd_id")] = id;
    values[RddInfo.STRUCT.fieldIndex("scope_name")] = scope;
    return RowFactory.create(values);
  }

  @Test
  void aStageOutsideSqlOfSpark22OrLaterOrOfRddScopesOnlyGetsDefaultParallelismAndNoSqlKey() {
    for (String app : List.of("rdd-4.1", "rdd-2.2", "rdd-1.5", "no-job-scoped-4.1")) {
      assertThat(rules(app)).containsExactlyInAnyOrder(Rule.TINY_TASKS, Rule.TOO_FEW_PARTITIONS,
          Rule.TOO_FEW_PARTITIONS);
      Row tiny = only(app, Rule.TINY_TASKS, 3);
      // TINY_TASKS's target: max(slots, task time ÷ 1 s) = 10 partitions, its spark.sql.shuffle.partitions before
      assertThat(tiny.<String, String>getJavaMap(tiny.fieldIndex("recommended_conf")))
          .isEqualTo(Map.of("spark.default.parallelism", "10"));
      assertThat(tiny.<String>getAs("recommendation")).endsWith("(The stage ran outside Spark SQL, which spark.sql.*"
          + " settings do not reach: spark.default.parallelism sets the partitions of its shuffles unless the code"
          + " names them.)");
      Row few = only(app, Rule.TOO_FEW_PARTITIONS, 4);
      assertThat(few.<String, String>getJavaMap(few.fieldIndex("recommended_conf")))
          .isEqualTo(Map.of("spark.default.parallelism", "32"));
      // the input stage's spark.sql.files.maxPartitionBytes has no RDD counterpart: left out, and said so
      Row input = only(app, Rule.TOO_FEW_PARTITIONS, 5);
      assertThat(input.<String, String>getJavaMap(input.fieldIndex("recommended_conf"))).isEmpty();
      assertThat(input.<String>getAs("recommendation")).endsWith("(The stage ran outside Spark SQL, which"
          + " spark.sql.* settings do not reach: left out of the settings.)");
    }
  }

  @Test
  void aStageOfASqlJobOrOfAnOlderOrUnknownRunWithoutRddScopesOnlyKeepsTheSqlSettings() {
    for (String app : List.of("sql-4.1", "rdd-2.1", "no-job-4.1", "sql-save-1.5", "unscoped-1.3")) {
      assertThat(rules(app)).as(app).containsExactlyInAnyOrder(Rule.TINY_TASKS, Rule.SHUFFLE_PARTITIONS,
          Rule.TOO_FEW_PARTITIONS, Rule.TOO_FEW_PARTITIONS);
      Row tiny = only(app, Rule.TINY_TASKS, 3);
      assertThat(tiny.<String, String>getJavaMap(tiny.fieldIndex("recommended_conf"))).as(app)
          .containsEntry("spark.sql.shuffle.partitions", "10")
          .doesNotContainKey("spark.default.parallelism");
      if (app.endsWith("4.1")) { // Spark before 2.2 has no spark.sql.adaptive.* to keep (VersionedSettings)
        assertThat(tiny.<String, String>getJavaMap(tiny.fieldIndex("recommended_conf"))).as(app)
            .containsEntry("spark.sql.adaptive.enabled", "true");
      }
      assertThat(tiny.<String>getAs("recommendation")).as(app).doesNotContain("outside Spark SQL");
      Row few = only(app, Rule.TOO_FEW_PARTITIONS, 4);
      assertThat(few.<String, String>getJavaMap(few.fieldIndex("recommended_conf"))).as(app)
          .isEqualTo(Map.of("spark.sql.shuffle.partitions", "32", "spark.default.parallelism", "32"));
      Row input = only(app, Rule.TOO_FEW_PARTITIONS, 5);
      assertThat(input.<String>getAs("recommendation")).as(app).doesNotContain("outside Spark SQL");
      if (app.endsWith("1.5") || app.endsWith("1.3")) { // read since 2.0: left out by the version, not by the stage
        assertThat(input.<String>getAs("recommendation")).as(app)
            .contains(" does not read spark.sql.files.maxPartitionBytes");
      } else {
        assertThat(input.<String, String>getJavaMap(input.fieldIndex("recommended_conf"))).as(app)
            .containsKey("spark.sql.files.maxPartitionBytes");
      }
    }
  }

  private static List<Rule> rules(String app) {
    return found.stream().filter(r -> r.<String>getAs("app_id").equals(app))
        .map(r -> Rule.valueOf(r.getAs("rule"))).toList();
  }

  private static Row only(String app, Rule rule, int stage) {
    List<Row> rows = found.stream().filter(r -> r.<String>getAs("app_id").equals(app)
        && r.<String>getAs("rule").equals(rule.name()) && r.<Integer>getAs("stage_id") == stage).toList();
    assertThat(rows).as(app + " " + rule + " stage " + stage).hasSize(1);
    return rows.get(0);
  }
}
