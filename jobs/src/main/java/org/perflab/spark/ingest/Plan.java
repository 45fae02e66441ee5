package org.perflab.spark.ingest;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.eventlog.source.EventLogSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which discovered logs a run parses: all of them, except logs modified within {@code --min-age-seconds} and, with
 * {@code --incremental}, logs an earlier run committed unchanged. A log that an unfinished run was writing is always
 * parsed again.
 *
 * @param toParse the logs to parse
 * @param unchanged logs skipped as unchanged
 * @param tooRecent logs left for a later run
 */
record Plan(List<EventLogSource> toParse, int unchanged, int tooRecent) {
  private static final Logger LOG = LoggerFactory.getLogger(Plan.class);

  Plan {
    toParse = List.copyOf(toParse);
  }

  static Plan of(List<EventLogSource> logs, Map<String, PreviousLog> previous, Set<String> unfinished,
      IngestOptions options, Clock clock, Redactor redactor) {
    List<EventLogSource> toParse = new ArrayList<>();
    int unchanged = 0;
    int tooRecent = 0;
    long newestAllowed = clock.millis() - options.minAgeSeconds() * 1000L;
    for (EventLogSource source : logs) {
      PreviousLog before = previous.get(source.logId());
      if (options.minAgeSeconds() > 0 && source.modificationTimeMs() > newestAllowed) {
        LOG.info("Skipping {}: modified within {} s; a later run will ingest it", redactor.redactText(source.path()),
            options.minAgeSeconds());
        tooRecent++;
      } else if (options.incremental() && before != null && !unfinished.contains(source.logId())
          && before.unchanged(source.bytes(), source.modificationTimeMs())) {
        unchanged++;
      } else {
        toParse.add(source);
      }
    }
    return new Plan(toParse, unchanged, tooRecent);
  }
}
