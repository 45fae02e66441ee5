package org.perflab.spark.ingest;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;

/**
 * Picks one copy of each application attempt when several logs hold it, such as an {@code .inprogress} copy and the
 * completed one: a completed copy beats an incomplete one, then the copy with more task attempts, then the later
 * end, then the lower log id (so the choice is deterministic).
 */
final class Deduplication {
  private Deduplication() {}

  /** One log's claim to an application attempt, from its {@code applications} row. */
  record Claim(String logId, String appId, String attemptId, boolean completed, long taskAttempts, long endTimeMs) {

    static Claim of(Row row) {
      Boolean completed = row.getAs("completed");
      Long tasks = row.getAs("num_task_attempts");
      Long end = row.getAs("end_time_ms");
      return new Claim(
          row.getAs("log_id"),
          row.getAs("app_id"),
          row.getAs("app_attempt_id"),
          completed != null && completed,
          tasks == null ? 0 : tasks,
          end == null ? 0 : end);
    }
  }

  private static final Comparator<Claim> BEST_FIRST =
      Comparator.comparing(Claim::completed)
          .thenComparingLong(Claim::taskAttempts)
          .thenComparingLong(Claim::endTimeMs)
          .reversed()
          .thenComparing(Claim::logId);

  /** For every log that loses, the log id that wins its application attempt. */
  static Map<String, String> losers(List<Claim> claims) {
    Map<String, List<Claim>> byAttempt = new HashMap<>();
    for (Claim claim : claims) {
      byAttempt.computeIfAbsent(claim.appId() + "\u0000" + claim.attemptId(), k -> new ArrayList<>()).add(claim);
    }
    Map<String, String> losers = new HashMap<>();
    for (List<Claim> copies : byAttempt.values()) {
      copies.sort(BEST_FIRST);
      Claim winner = copies.get(0);
      copies.stream().skip(1).filter(c -> !c.logId().equals(winner.logId()))
          .forEach(c -> losers.put(c.logId(), winner.logId()));
    }
    return losers;
  }
}
