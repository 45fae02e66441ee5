package org.perflab.spark.findings;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * The {@code findings} transform: every {@link Rule} over {@link FindingInputs}, one row per finding of severity LOW
 * or worse, in the {@link FindingsTable#SCHEMA}. No I/O; docs/findings.md describes the rules.
 */
public final class Findings {
  private Findings() {}

  /** The findings of every application in {@code in}. */
  public static Dataset<Row> compute(FindingInputs in) {
    List<Dataset<Row>> parts = new ArrayList<>();
    parts.addAll(StageRules.of(in));
    parts.addAll(AppRules.of(in));
    parts.addAll(SqlRules.of(in));
    Dataset<Row> all = parts.get(0);
    for (Dataset<Row> part : parts.subList(1, parts.size())) {
      all = all.unionByName(part);
    }
    return FindingsTable.conform(all);
  }
}
