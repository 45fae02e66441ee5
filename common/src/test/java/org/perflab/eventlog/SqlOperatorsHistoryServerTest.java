package org.perflab.eventlog;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Row;
import org.apache.spark.util.MetricUtils;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.perflab.eventlog.fixture.LogFixtures;
import org.perflab.eventlog.parse.ParsedLog;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.eventlog.source.EventLogSource;
import org.perflab.table.Table;
import org.perflab.table.TableRow;
import org.perflab.testing.SqlHistoryServerReplay;

/**
 * The {@code sql_operators} table against the History Server's SQL tab: every bundled sample log and every Spark
 * reference log is replayed through Spark's own {@code SQLAppStatusListener}, and for every SQL execution every plan
 * node must exist with the same name, kind, metrics (name, accumulator id, type) and edges, and every metric value
 * must render, through Spark's own {@code MetricUtils.stringValue}, to the string the tab shows: the total, and for
 * size and time metrics min, median and max too (the "(stage s.a: task t)" of the max is not stored).
 */
class SqlOperatorsHistoryServerTest {
  private static final String QUANTILES = "(min, med, max (stageId: taskId))";
  private static final Pattern MAX_TASK = Pattern.compile(" \\((stage \\d+\\.\\d+: task \\d+|driver)\\)\\)$");

  static Stream<EventLogSource> logs() throws IOException {
    return LogFixtures.samplesAndReferenceLogs().stream();
  }

  @ParameterizedTest
  @MethodSource("logs")
  void everyOperatorAndMetricEqualsTheSqlTab(EventLogSource log) throws IOException {
    ParsedLog parsed = ParsedLog.collect(
        EventLogReader.rows(log, new Configuration(), Redactor.defaults(), Clock.systemUTC()));
    Map<Long, SqlHistoryServerReplay.Execution> expected = SqlHistoryServerReplay.replay(log.path());
    Map<Long, Map<Long, TableRow>> ours = byExecutionAndNode(parsed.rows(Table.SQL_OPERATORS));

    List<String> differences = new ArrayList<>();
    int[] valuesCompared = new int[2];
    expected.forEach((executionId, execution) -> compare(executionId, execution,
        ours.getOrDefault(executionId, Map.of()), differences, valuesCompared));
    ours.keySet().stream().filter(id -> !expected.containsKey(id))
        .forEach(id -> differences.add("execution " + id + ": not in the History Server"));

    assertThat(differences).isEmpty();
    boolean hasSql = expected.values().stream().anyMatch(execution -> execution.nodes().size() > 1);
    if (hasSql) {
      assertThat(valuesCompared[0]).as("metric values compared").isGreaterThan(20);
      assertThat(valuesCompared[1]).as("min/median/max compared").isPositive();
    }
  }

  private static Map<Long, Map<Long, TableRow>> byExecutionAndNode(List<TableRow> rows) {
    Map<Long, Map<Long, TableRow>> byExecution = new HashMap<>();
    for (TableRow row : rows) {
      byExecution.computeIfAbsent((Long) row.get("execution_id"), id -> new HashMap<>())
          .put((Long) row.get("node_id"), row);
    }
    return byExecution;
  }

  private static void compare(long executionId, SqlHistoryServerReplay.Execution expected, Map<Long, TableRow> ours,
      List<String> differences, int[] valuesCompared) {
    String where = "execution " + executionId;
    if (ours.size() != expected.nodes().size()) {
      differences.add(where + ": History Server " + expected.nodes().size() + " nodes, PerfLab " + ours.size());
    }
    List<String> edges = new ArrayList<>();
    ours.values().forEach(row -> {
      for (Object child : (Object[]) row.get("child_node_ids")) {
        edges.add(child + "->" + row.get("node_id"));
      }
    });
    if (!new java.util.HashSet<>(edges).equals(new java.util.HashSet<>(expected.edges()))) {
      differences.add(where + " edges: History Server " + expected.edges() + ", PerfLab " + edges);
    }
    for (SqlHistoryServerReplay.Node node : expected.nodes().values()) {
      TableRow row = ours.get(node.id());
      String at = where + " node " + node.id() + " " + node.name();
      if (row == null) {
        differences.add(at + ": missing from PerfLab");
        continue;
      }
      if (!node.name().equals(row.get("node_name")) || !Boolean.valueOf(node.cluster()).equals(row.get("is_cluster"))) {
        differences.add(at + ": PerfLab names it " + row.get("node_name") + ", cluster " + row.get("is_cluster"));
      }
      Row[] metrics = (Row[]) row.get("metric_values");
      if (metrics.length != node.metrics().size()) {
        differences.add(at + ": History Server " + node.metrics().size() + " metrics, PerfLab " + metrics.length);
        continue;
      }
      for (int i = 0; i < metrics.length; i++) {
        compareMetric(at, node.metrics().get(i), metrics[i], differences, valuesCompared);
      }
    }
  }

  private static void compareMetric(String at, SqlHistoryServerReplay.Metric expected, Row ours,
      List<String> differences, int[] valuesCompared) {
    String where = at + " metric " + expected.name() + " [" + expected.accumulatorId() + "]";
    if (!expected.name().equals(ours.getString(0)) || !expected.type().equals(ours.getString(1))
        || expected.accumulatorId() != ours.getLong(2)) {
      differences.add(where + ": PerfLab has " + ours);
      return;
    }
    String shown = render(expected.type(), ours, expected.shown());
    if (expected.shown() == null ? !ours.isNullAt(7) : !expected.shown().equals(shown)) {
      differences.add(where + ": History Server shows " + quote(expected.shown()) + ", PerfLab " + quote(shown)
          + " from " + ours);
    } else if (expected.shown() != null) {
      valuesCompared[0]++;
      if (expected.shown().contains(QUANTILES)) {
        valuesCompared[1]++;
      }
    }
  }

  /**
   * PerfLab's value as the SQL tab would show it, each number formatted by Spark itself; the "(stage s.a: task t)" of
   * the max is copied from {@code shown}, since PerfLab does not store it.
   */
  private static String render(String type, Row ours, String shown) {
    if (ours.isNullAt(7)) {
      return null;
    }
    if (type.equals("sum")) {
      return format(type, ours.getLong(3));
    }
    long values = ours.getLong(7);
    boolean average = type.equals("average");
    if (values <= 1) {
      return format(type, values == 0 ? 0 : average ? ours.getLong(4) : ours.getLong(3));
    }
    String quantiles = "(" + format(type, ours.getLong(4)) + ", " + format(type, ours.getLong(5)) + ", "
        + format(type, ours.getLong(6));
    String maxTask = shown == null ? "" : shown.substring(shown.lastIndexOf(" ("));
    return (average ? QUANTILES + ":\n" + quantiles : "total " + QUANTILES + "\n" + format(type, ours.getLong(3))
        + " " + quantiles) + (MAX_TASK.matcher(shown == null ? "" : shown).find() ? maxTask : "");
  }

  private static String format(String type, long value) {
    return MetricUtils.stringValue(type, new long[] {value}, new long[0]);
  }

  private static String quote(String text) {
    return text == null ? null : "'" + text.replace("\n", "\\n") + "'";
  }
}
