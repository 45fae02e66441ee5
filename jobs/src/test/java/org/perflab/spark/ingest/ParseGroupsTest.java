package org.perflab.spark.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.perflab.eventlog.source.LogCompression;
import org.perflab.eventlog.source.EventLogSource;
import org.perflab.eventlog.source.LogLayout;

class ParseGroupsTest {
  private static EventLogSource log(int i, long bytes) {
    return new EventLogSource("file:/archive/app-" + i, LogLayout.SINGLE_FILE, List.of("file:/archive/app-" + i),
        bytes, 0L, LogCompression.NONE, false, null);
  }

  @Test
  void manySmallLogsShareAFewTasksAndALargeLogParsesAlone() {
    List<EventLogSource> logs = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      logs.add(log(i, 300_000));
    }
    logs.add(log(1000, 2L << 30));

    List<List<EventLogSource>> groups = ParseGroups.plan(logs, 2);

    assertThat(groups.get(0)).containsExactly(logs.get(1000));
    assertThat(groups).hasSizeBetween(2, 2 * ParseGroups.TASKS_PER_CORE + 1);
    assertThat(groups.stream().mapToInt(List::size).sum()).isEqualTo(1001);
    long target = Math.max(ParseGroups.MIN_GROUP_BYTES, (1000 * 300_000L + (2L << 30)) / 6);
    assertThat(groups.subList(1, groups.size()))
        .allSatisfy(g -> assertThat(g.stream().mapToLong(EventLogSource::bytes).sum()).isLessThanOrEqualTo(target));
  }

  @Test
  void aSmallArchiveIsOneTask() {
    assertThat(ParseGroups.plan(List.of(log(1, 1000), log(2, 2000), log(3, 3000)), 8)).hasSize(1);
    assertThat(ParseGroups.plan(List.of(), 2)).isEmpty();
  }

  @Test
  void replacedLogsAreTheReingestedTheUnfinishedTheSupersededAndTheirWinnersInThisRun() {
    Set<String> parsed = Set.of("new", "again", "winner", "orphan-again", "loser-now");
    Set<String> committed = Set.of("again", "old-loser", "old", "loser-now");
    Set<String> unfinished = Set.of("orphan-again", "orphan-gone");
    Map<String, String> losers = Map.of("old-loser", "winner", "loser-now", "old");

    assertThat(Ingest.replacedLogs(parsed, committed, unfinished, losers))
        .containsExactlyInAnyOrder("again", "orphan-again", "orphan-gone", "old-loser", "winner", "loser-now");
  }
}
