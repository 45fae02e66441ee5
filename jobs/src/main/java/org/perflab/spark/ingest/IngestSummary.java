package org.perflab.spark.ingest;

import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What one {@code ingest} run did.
 *
 * @param runId the run id stamped on every {@code ingest_status} row the run wrote
 * @param logsFound logs discovered under the inputs, skipped files excluded
 * @param logsParsed logs read in this run
 * @param logsUnchanged logs skipped by {@code --incremental} because an earlier run ingested them unchanged
 * @param logsTooRecent logs skipped because they were modified within {@code --min-age-seconds}
 * @param skippedFiles files that are not readable event logs (unsupported codec and the like)
 * @param superseded copies of an application attempt dropped in favour of a better copy (completed, larger)
 * @param statusCounts status rows written in this run, by status (OK, PARTIAL, FAILED, SKIPPED)
 * @param rowsByTable rows written per table in this run
 * @param phaseMs wall time per phase, in milliseconds, in run order
 * @param outputRoot where the tables are
 */
public record IngestSummary(
    String runId,
    int logsFound,
    int logsParsed,
    int logsUnchanged,
    int logsTooRecent,
    int skippedFiles,
    int superseded,
    Map<String, Long> statusCounts,
    Map<String, Long> rowsByTable,
    Map<String, Long> phaseMs,
    String outputRoot) {

  public IngestSummary {
    statusCounts = Map.copyOf(statusCounts);
  }

  /** The first line: what was found and parsed, and the statuses. */
  @Override
  public String toString() {
    return String.format(
        "ingest: %d logs found, %d parsed, %d unchanged, %d too recent, %d files skipped, %d superseded; status %s",
        logsFound, logsParsed, logsUnchanged, logsTooRecent, skippedFiles, superseded,
        new java.util.TreeMap<>(statusCounts));
  }

  /** The summary printed at the end of a run: statuses, rows per table, time per phase, and where the tables are. */
  public String report() {
    String rows = rowsByTable.entrySet().stream().map(e -> e.getKey() + " " + e.getValue())
        .collect(Collectors.joining(", "));
    String phases = phaseMs.entrySet().stream()
        .map(e -> String.format(Locale.ROOT, "%s %.1f s", e.getKey(), e.getValue() / 1000.0))
        .collect(Collectors.joining(", "));
    StringBuilder out = new StringBuilder(toString()).append('\n');
    out.append("  rows written: ").append(rows.isEmpty() ? "none" : rows).append('\n');
    out.append("  time: ").append(phases).append('\n');
    out.append("  run id: ").append(runId).append('\n');
    out.append(org.perflab.jobs.cli.RunSummary.tables(outputRoot, rowsByTable.keySet()));
    return out.toString();
  }
}
