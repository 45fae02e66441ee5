package org.perflab.spark.storage;

import java.util.Map;

/**
 * Spark's compiled SQL expressions (its defaults: whole-stage code generation, interpreted only where compiling
 * fails), for work over millions of task rows. PerfLab interprets expressions otherwise
 * ({@code JobSession.INTERPRETED_SQL}): its tables hold a row per application or stage, and a night runs some 700
 * short queries whose generated code costs more to compile than it saves. Per row, interpreting costs more: over a
 * million-task application, writing the {@code tasks} rows took 48 s interpreted against 24 s compiled, and
 * {@code diagnose}'s aggregation of one stage's task rows ran minutes of interpreted projections in one task
 * (docs/benchmarks.md, "Compiled SQL for a giant night").
 */
public final class CompiledExpressions {
  /** Task rows from which work compiles its expressions. */
  public static final long FROM_TASK_ROWS = 1_000_000;

  /** The settings, the same keys as the interpreted ones. */
  public static final Map<String, String> SETTINGS = Map.of("spark.sql.codegen.wholeStage", "true",
      "spark.sql.codegen.factoryMode", "FALLBACK");

  private CompiledExpressions() {}

  /** Whether work over {@code taskRows} task rows compiles its expressions. */
  public static boolean pay(long taskRows) {
    return taskRows >= FROM_TASK_ROWS;
  }
}
