package org.perflab.spark.ingest;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.perflab.eventlog.source.EventLogSource;

/**
 * Size-balanced groups of logs, one parse task each: many small logs share a task, and a log at least as large as
 * the target parses alone. The target is the total size over {@code tasksPerCore × cores} tasks, at least
 * {@link #MIN_GROUP_BYTES}, so a small archive does not pay a task per log, and a large one keeps every core busy.
 * Groups are listed largest first, so the longest tasks start first.
 */
final class ParseGroups {
  /** The smallest group worth a task of its own: 32 MiB of log on storage. */
  static final long MIN_GROUP_BYTES = 32L << 20;
  /** Tasks per core, so that a core that finishes early takes another group. */
  static final int TASKS_PER_CORE = 3;

  private ParseGroups() {}

  /** Splits {@code sources} into groups for {@code cores} cores. */
  static List<List<EventLogSource>> plan(List<EventLogSource> sources, int cores) {
    long total = sources.stream().mapToLong(EventLogSource::bytes).sum();
    long target = Math.max(MIN_GROUP_BYTES, total / Math.max(1, (long) cores * TASKS_PER_CORE));
    List<EventLogSource> largestFirst = new ArrayList<>(sources);
    largestFirst.sort(Comparator.comparingLong(EventLogSource::bytes).reversed()
        .thenComparing(EventLogSource::path));
    List<List<EventLogSource>> groups = new ArrayList<>();
    List<Long> sizes = new ArrayList<>();
    for (EventLogSource source : largestFirst) {
      int fit = -1;
      for (int i = 0; i < groups.size(); i++) {
        if (sizes.get(i) + source.bytes() <= target) {
          fit = i;
          break;
        }
      }
      if (fit < 0) {
        groups.add(new ArrayList<>());
        sizes.add(0L);
        fit = groups.size() - 1;
      }
      groups.get(fit).add(source);
      sizes.set(fit, sizes.get(fit) + source.bytes());
    }
    return groups;
  }
}
