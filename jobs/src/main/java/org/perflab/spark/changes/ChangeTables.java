package org.perflab.spark.changes;

import java.util.List;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.perflab.table.KeyColumns;

/**
 * The tables of {@code regressions} and {@code compare}, with their schemas (documented column by column in
 * docs/tables.md, which {@code DocumentedTablesTest} keeps in step).
 */
public final class ChangeTables {
  public static final String REGRESSIONS_TABLE = "regressions";
  public static final String COMPARISONS_TABLE = "comparisons";

  private static final DataType STRING = DataTypes.StringType;
  private static final DataType INT = DataTypes.IntegerType;
  private static final DataType LONG = DataTypes.LongType;
  private static final DataType DOUBLE = DataTypes.DoubleType;
  private static final DataType BOOLEAN = DataTypes.BooleanType;

  /** One ranked cause: kind, what, seconds explained, share of the extra time, evidence, what to do. */
  public static final StructType CAUSE = new StructType()
      .add("rank", INT, false)
      .add("kind", STRING, false)
      .add("what", STRING, false)
      .add("seconds", DOUBLE, false)
      .add("share", DOUBLE, true)
      .add("evidence", STRING, false)
      .add("action", STRING, false);

  public static final StructType REGRESSIONS = new StructType()
      .add(KeyColumns.LOG_ID, STRING, false)
      .add(KeyColumns.APP_ID, STRING, false)
      .add(KeyColumns.APP_ATTEMPT_ID, STRING, false)
      .add("workload_id", STRING, false)
      .add("start_time_ms", LONG, true)
      .add("verdict", STRING, false)
      .add("note", STRING, true)
      .add("change_kind", STRING, true)
      .add("history_runs", INT, false)
      .add("baseline_runs", INT, false)
      .add("baseline_app_ids", DataTypes.createArrayType(STRING, false), false)
      .add("reference_app_id", STRING, true)
      .add("since_change", BOOLEAN, false)
      .add("wall_time_s", DOUBLE, true)
      .add("baseline_wall_time_s", DOUBLE, true)
      .add("wall_time_ratio", DOUBLE, true)
      .add("wall_time_z", DOUBLE, true)
      .add("wall_time_verdict", STRING, false)
      .add("core_hours", DOUBLE, true)
      .add("core_hours_ratio", DOUBLE, true)
      .add("core_hours_z", DOUBLE, true)
      .add("core_hours_verdict", STRING, false)
      .add("gb_hours", DOUBLE, true)
      .add("gb_hours_ratio", DOUBLE, true)
      .add("gb_hours_z", DOUBLE, true)
      .add("gb_hours_verdict", STRING, false)
      .add("extra_s", DOUBLE, true)
      .add("first_cause", STRING, true)
      .add("causes", new ArrayType(CAUSE, false), false)
      .add("actions", DataTypes.createArrayType(STRING, false), false)
      .add("judged_at_ms", LONG, false)
      .add("previous_app_id", STRING, true)
      .add("changes", DataTypes.createArrayType(STRING, false), true);

  /**
   * One row per compared pair of runs (A, B) and difference or aligned stage ({@link ComparisonRow}): the runs'
   * totals, each configuration and data difference, and every stage of either run with its time split.
   */
  public static final StructType COMPARISONS = new StructType()
      .add("log_id_a", STRING, false)
      .add("app_id_a", STRING, false)
      .add("log_id_b", STRING, false)
      .add("app_id_b", STRING, false)
      .add("workload_id_a", STRING, false)
      .add("workload_id_b", STRING, false)
      .add("kind", STRING, false)
      .add("position", INT, false)
      .add("item", STRING, false)
      .add("value_a", STRING, true)
      .add("value_b", STRING, true)
      .add("amount_a", DOUBLE, true)
      .add("amount_b", DOUBLE, true)
      .add("unit", STRING, true)
      .add("change", DOUBLE, true)
      .add("ratio", DOUBLE, true)
      .add("stage_match", STRING, true)
      .add("stage_id_a", INT, true)
      .add("stage_id_b", INT, true)
      .add("job_ordinal", INT, true)
      .add("attempts_a", INT, true)
      .add("attempts_b", INT, true)
      .add("tasks_a", LONG, true)
      .add("tasks_b", LONG, true)
      .add("task_time_s_a", DOUBLE, true)
      .add("task_time_s_b", DOUBLE, true)
      .add("cpu_s_a", DOUBLE, true)
      .add("cpu_s_b", DOUBLE, true)
      .add("gc_s_a", DOUBLE, true)
      .add("gc_s_b", DOUBLE, true)
      .add("shuffle_read_s_a", DOUBLE, true)
      .add("shuffle_read_s_b", DOUBLE, true)
      .add("shuffle_write_s_a", DOUBLE, true)
      .add("shuffle_write_s_b", DOUBLE, true)
      .add("spill_bytes_a", LONG, true)
      .add("spill_bytes_b", LONG, true)
      .add("scheduler_delay_s_a", DOUBLE, true)
      .add("scheduler_delay_s_b", DOUBLE, true)
      .add("compared_at_ms", LONG, false);

  /** The tables, in the order they are documented. */
  public static final List<String> NAMES = List.of(REGRESSIONS_TABLE, COMPARISONS_TABLE);

  private ChangeTables() {}
}
