package org.perflab.ingest;

import java.util.Map;

/**
 * What one {@code ingest} run did.
 *
 * @param logsFound logs discovered under the inputs, skipped files excluded
 * @param logsParsed logs read in this run
 * @param logsUnchanged logs skipped by {@code --incremental} because an earlier run ingested them unchanged
 * @param logsTooRecent logs skipped because they were modified within {@code --min-age-seconds}
 * @param skippedFiles files that are not readable event logs (unsupported codec and the like)
 * @param superseded copies of an application attempt dropped in favour of a better copy (completed, larger)
 * @param statusCounts status rows written in this run, by status (OK, PARTIAL, FAILED, SKIPPED)
 */
public record IngestSummary(
    int logsFound,
    int logsParsed,
    int logsUnchanged,
    int logsTooRecent,
    int skippedFiles,
    int superseded,
    Map<String, Long> statusCounts) {

  @Override
  public String toString() {
    return String.format(
        "ingest: %d logs found, %d parsed, %d unchanged, %d too recent, %d files skipped, %d superseded; status %s",
        logsFound, logsParsed, logsUnchanged, logsTooRecent, skippedFiles, superseded, statusCounts);
  }
}
