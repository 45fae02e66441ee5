package org.perflab.jobs.nightly;

import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.perflab.jobs.cli.JobSession;
import org.perflab.spark.storage.CompiledExpressions;
import org.perflab.table.Table;

/**
 * When a night compiles its SQL expressions ({@link CompiledExpressions}) instead of interpreting them
 * ({@link JobSession#INTERPRETED_SQL}, the night's default): from the step after an {@code ingest} that wrote at least
 * {@link CompiledExpressions#FROM_TASK_ROWS} rows of
 * {@code tasks}, to the night's end. The steps after ingest analyse what it wrote (they are incremental), and
 * interpreting costs per row: over a million-task application, {@code diagnose}'s aggregation of its stages' task
 * rows ran interpreted expressions for minutes where compiled ones take seconds, while a night over a few thousand
 * task rows spends more compiling its some 700 queries than it saves (docs/benchmarks.md, "Compiled SQL for a giant
 * night"). A key the user set at submission is left as set. The ingest compiles its own writes over as many rows.
 */
public final class CompiledSql {
  private CompiledSql() {}

  /**
   * The settings for the steps after {@code step}, given the rows it wrote: {@link CompiledExpressions#SETTINGS} after
   * an ingest that wrote at least {@link CompiledExpressions#FROM_TASK_ROWS} task rows, otherwise none.
   */
  public static Optional<Map<String, String>> after(Step step, Map<String, Long> rows) {
    return step.job().equals("ingest") && CompiledExpressions.pay(taskRows(rows))
        ? Optional.of(CompiledExpressions.SETTINGS) : Optional.empty();
  }

  /**
   * The progress line of a night whose ingest wrote {@code rows}, given the keys {@code changed} for the rest of the
   * night (none when the user set them all at submission).
   */
  static String line(Map<String, Long> rows, Collection<String> changed) {
    String wrote = String.format(Locale.ROOT, "ingest wrote %,d task rows (compiled from %,d)", taskRows(rows),
        CompiledExpressions.FROM_TASK_ROWS);
    return changed.isEmpty()
        ? "nightly: SQL expressions as set at submission ("
            + String.join(", ", new TreeSet<>(CompiledExpressions.SETTINGS.keySet())) + "), although " + wrote
        : "nightly: SQL expressions compiled for the rest of the night (" + String.join(", ", new TreeSet<>(changed))
            + "): " + wrote;
  }

  private static long taskRows(Map<String, Long> rows) {
    return rows.getOrDefault(Table.TASKS.tableName(), 0L);
  }
}
