package org.perflab.eventlog.source;

import java.util.List;

/**
 * What {@link LogDiscovery} found: the logs to read, and the files it will not read, each sorted by path.
 */
public record Discovery(List<EventLogSource> logs, List<SkippedFile> skipped) {
  public Discovery {
    logs = List.copyOf(logs);
    skipped = List.copyOf(skipped);
  }
}
