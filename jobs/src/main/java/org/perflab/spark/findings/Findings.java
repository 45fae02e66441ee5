package org.perflab.spark.findings;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.perflab.findings.ImpactLimits;

/**
 * The {@code findings} transform: every {@link Rule} over {@link FindingInputs}, one row per finding of severity LOW
 * or worse (graded by the rule's metric, then bounded by its impact), in the {@link FindingsTable#SCHEMA}. No I/O;
 * docs/findings.md describes the rules.
 */
public final class Findings {
  /**
   * The version of the rules, for {@code diagnose}'s watermark ({@code ChangedLogs}): an output root diagnosed by other
   * rules is diagnosed again in full. 2 (2026-12-05): settings of stages outside Spark SQL, {@code SPILL} under the
   * static memory manager.
   */
  public static final int RULES_VERSION = 2;

  private Findings() {}

  /** The findings of every application in {@code in}, each severity bounded by its impact ({@link ImpactCap}). */
  public static Dataset<Row> compute(FindingInputs in) {
    FindingInputs shared = in.withSharedScans();
    return FindingsTable.conform(ImpactCap.apply(union(shared), shared.appFeatures(), ImpactLimits.DEFAULT));
  }

  /** Each rule's findings graded by its metric alone, before {@link ImpactCap} bounds them. */
  static Dataset<Row> graded(FindingInputs in) {
    return FindingsTable.conform(union(in.withSharedScans()));
  }

  /**
   * Every rule's rows, one union, their settings in the keys a stage outside Spark SQL reads ({@link OutsideSql}) and
   * in those of each run's Spark version ({@link VersionedSettings}),
   * not conformed: conforming materialises a plan ({@code TableStore#conform}), so
   * {@link #compute} conforms once, at the end.
   */
  private static Dataset<Row> union(FindingInputs in) {
    // Each log's Spark version, read once for the three transforms that need it.
    Dataset<Row> versions = VersionedSettings.versions(in.ingestStatus());
    Dataset<Row> outsideSql = OutsideSql.stages(in, versions);
    List<Dataset<Row>> parts = new ArrayList<>();
    parts.addAll(StageRules.of(in, outsideSql, StaticMemory.of(in, versions)));
    parts.addAll(AppRules.of(in));
    parts.addAll(SqlRules.of(in));
    Dataset<Row> all = parts.get(0);
    for (Dataset<Row> part : parts.subList(1, parts.size())) {
      all = all.unionByName(part);
    }
    return VersionedSettings.apply(OutsideSql.apply(all, outsideSql), versions);
  }
}
