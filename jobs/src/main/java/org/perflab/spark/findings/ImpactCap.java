package org.perflab.spark.findings;

import static org.apache.spark.sql.functions.array;
import static org.apache.spark.sql.functions.array_position;
import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.element_at;
import static org.apache.spark.sql.functions.least;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.map;
import static org.apache.spark.sql.functions.map_concat;
import static org.apache.spark.sql.functions.try_divide;
import static org.apache.spark.sql.functions.when;

import java.util.Arrays;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.perflab.findings.Impact;
import org.perflab.findings.ImpactLimits;
import org.perflab.findings.Rule;
import org.perflab.findings.Severity;
import org.perflab.findings.Thresholds;
import org.perflab.spark.storage.AppKeyColumns;

/**
 * Bounds every finding's severity by what it costs its application ({@link ImpactLimits}, per rule
 * {@link Impact#of}), one Column expression over the graded findings joined with their application's wall time and
 * slots, and adds that cost to the evidence: {@code core_hours_saved} (savings × slots ÷ 3600, or the idle
 * core-hours) or {@code gb_hours_saved} (the rule's {@code wasted_gb_hours}). A cost that cannot be measured (no idle
 * core-seconds, no executor time) bounds nothing.
 */
final class ImpactCap {
  /** Evidence key: core-hours a finding would save per run. */
  static final String CORE_HOURS_SAVED = "core_hours_saved";
  /** Evidence key: GB-hours of executor memory a finding would save per run. */
  static final String GB_HOURS_SAVED = "gb_hours_saved";
  /** Evidence key of {@code EXECUTOR_MEMORY_OVERSIZED}: GB-hours its surplus memory was held. */
  static final String WASTED_GB_HOURS = "wasted_gb_hours";

  private static final Column LEVELS = array(Arrays.stream(Severity.values()).map(s -> lit(s.name()))
      .toArray(Column[]::new));
  private static final String WALL = "impact_wall_time_s";
  private static final String SLOTS = "impact_slots";

  private ImpactCap() {}

  /**
   * {@code findings} (the table's columns) with each severity bounded by its impact and the impact in the evidence.
   *
   * @param appFeatures the applications' {@code wall_time_s} and {@code slots}, by the application key
   */
  static Dataset<Row> apply(Dataset<Row> findings, Dataset<Row> appFeatures, ImpactLimits limits) {
    Dataset<Row> apps = appFeatures.select(AppKeyColumns.with("wall_time_s", "slots"))
        .withColumnRenamed("wall_time_s", WALL).withColumnRenamed("slots", SLOTS);
    Column savedCoreHours = coreHoursSaved(col("rule"), col("estimated_savings_s"), col(SLOTS), col("evidence"));
    Column savedGbHours = element_at(col("evidence"), lit(WASTED_GB_HOURS));
    return findings.join(apps, AppKeyColumns.using(), "left")
        .withColumn("severity", capped(col("severity"), ceiling(col("rule"), col("estimated_savings_s"), col(WALL),
            savedCoreHours, savedGbHours, limits)))
        .withColumn("evidence", when(isIn(col("rule"), Impact.GB_HOURS), map_concat(col("evidence"),
            map(lit(GB_HOURS_SAVED), savedGbHours))).otherwise(map_concat(col("evidence"),
            map(lit(CORE_HOURS_SAVED), savedCoreHours))))
        .drop(WALL, SLOTS);
  }

  /**
   * Core-hours a finding saves per run: the idle core-seconds ÷ 3600 for {@link Impact#CORE_HOURS} rules, else its
   * savings × the application's slots (1 when unknown) ÷ 3600; null for {@link Impact#GB_HOURS} rules.
   */
  static Column coreHoursSaved(Column rule, Column savingsS, Column slots, Column evidence) {
    return when(isIn(rule, Impact.CORE_HOURS), element_at(evidence, lit("idle_core_s")).divide(3600.0))
        .when(isIn(rule, Impact.GB_HOURS), lit(null).cast("double"))
        .otherwise(savingsS.multiply(coalesce(slots, lit(1))).divide(3600.0));
  }

  /**
   * The highest severity the impact allows, as its position in {@link Severity#values()} counted from 1 (LOW = 2,
   * CRITICAL = 5): at least LOW; CRITICAL (no bound) for {@link Impact#EVIDENCE} rules and for costs that are unknown.
   */
  static Column ceiling(Column rule, Column savingsS, Column wallS, Column coreHours, Column gbHours,
      ImpactLimits limits) {
    Column byTime = least(level(try_divide(savingsS, wallS), limits.wallShare()),
        level(coreHours, limits.coreHours()));
    Column bound = when(isIn(rule, Impact.EVIDENCE), lit(null).cast("int"))
        .when(isIn(rule, Impact.CORE_HOURS), level(coreHours, limits.coreHours()))
        .when(isIn(rule, Impact.GB_HOURS), level(gbHours, limits.gbHours()))
        .otherwise(byTime);
    return coalesce(bound, lit(position(Severity.CRITICAL)));
  }

  /** {@code severity} (a name) lowered to {@code ceiling} (a position) when above it. */
  static Column capped(Column severity, Column ceiling) {
    return element_at(LEVELS, least(array_position(LEVELS, severity).cast("int"), ceiling));
  }

  /** The position (LOW = 2 .. CRITICAL = 5) of the highest level whose limit {@code value} reaches; null if null. */
  private static Column level(Column value, Thresholds limits) {
    Column v = value.cast("double");
    return when(v.isNull(), lit(null).cast("int"))
        .when(v.geq(limits.critical()), position(Severity.CRITICAL))
        .when(v.geq(limits.severe()), position(Severity.SEVERE))
        .when(v.geq(limits.moderate()), position(Severity.MODERATE))
        .otherwise(position(Severity.LOW));
  }

  private static int position(Severity severity) {
    return severity.ordinal() + 1;
  }

  private static Column isIn(Column rule, Impact impact) {
    return rule.isin(Arrays.stream(Rule.values()).filter(r -> Impact.of(r) == impact).map(Rule::name).toArray());
  }
}
