package org.perflab.eventlog.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.table.Table;
import org.perflab.table.TableRow;

/**
 * The {@code sql_operators} rows of a hand-written log whose answer is worked out by hand: one SQL execution with a
 * WholeStageCodegen cluster around a Filter over a Scan, one stage of three tasks (a failed attempt retried, a
 * speculative copy ending after its index succeeded), a driver update, and a second stage attempt that starts afresh.
 */
class SqlOperatorsTest {
  private static final String SQL = "org.apache.spark.sql.execution.ui.";
  private static final String PLAN = """
      {"nodeName":"WholeStageCodegen (1)","simpleString":"WholeStageCodegen (1)","metadata":{},\
      "metrics":[{"name":"duration","accumulatorId":30,"metricType":"timing"}],"children":[\
      {"nodeName":"Filter","simpleString":"Filter (url = jdbc:mysql://u:secretpw@h/db)","metadata":{},\
      "metrics":[{"name":"number of output rows","accumulatorId":20,"metricType":"sum"},\
      {"name":"spill size","accumulatorId":21,"metricType":"size"}],"children":[\
      {"nodeName":"Scan parquet","simpleString":"FileScan parquet [a]","metadata":{},"children":[],\
      "metrics":[{"name":"number of output rows","accumulatorId":10,"metricType":"sum"},\
      {"name":"scan time","accumulatorId":11,"metricType":"timing"}]}]}]}""";

  @TempDir
  Path dir;

  @Test
  void metricsFollowTheHistoryServersRulesForRetriesSpeculationAndTheDriver() throws IOException {
    List<String> lines = header(3);
    lines.addAll(List.of(
        taskEnd(0, 0, 0, true, "[10,100],[11,5],[20,40],[30,7]"),
        // A failed attempt's values stand until its index succeeds; the retry replaces them.
        taskEnd(0, 1, 1, false, "[10,999],[11,50]"),
        taskEnd(0, 2, 1, true, "[10,60],[11,3],[20,30],[30,4]"),
        // A speculative copy ending after its index succeeded changes nothing.
        taskEnd(0, 3, 1, true, "[10,1000],[20,1000]"),
        taskEnd(0, 4, 2, true, "[10,40],[20,10],[30,9]"),
        "{\"Event\":\"" + SQL + "SparkListenerDriverAccumUpdates\",\"executionId\":0,\"accumUpdates\":[[11,2]]}"));
    lines.addAll(footer());

    Map<String, TableRow> nodes = operators(lines);

    TableRow scan = nodes.get("Scan parquet");
    assertThat(scan.get("output_rows")).isEqualTo(200L);
    // Scan time per index 5, 3 and 0 (index 2 never reported it), plus the driver's 2: sorted 0, 2, 3, 5.
    assertThat(metric(scan, "scan time")).isEqualTo(List.of(10L, 0L, 3L, 5L, 4L));
    assertThat(scan.get("time_ms")).isEqualTo(10L);
    assertThat(scan.get("input_rows")).isNull();
    TableRow filter = nodes.get("Filter");
    assertThat(filter.get("output_rows")).isEqualTo(80L);
    assertThat(filter.get("input_rows")).isEqualTo(200L);
    assertThat(filter.get("time_ms")).isNull();
    assertThat(metric(filter, "spill size")).containsOnlyNulls();
    assertThat(filter.get("metrics")).isEqualTo(Map.of("number of output rows", 80L));
    TableRow cluster = nodes.get("WholeStageCodegen (1)");
    assertThat(metric(cluster, "duration")).isEqualTo(List.of(20L, 4L, 7L, 9L, 3L));
    assertThat(cluster.get("is_cluster")).isEqualTo(true);
  }

  @Test
  void nodesHaveTheHistoryServersIdsClustersAndEdgesAndRedactedDescriptions() throws IOException {
    List<String> lines = header(1);
    lines.add(taskEnd(0, 0, 0, true, "[10,1]"));
    lines.addAll(footer());

    Map<String, TableRow> nodes = operators(lines);

    assertThat(nodes.get("WholeStageCodegen (1)").get("node_id")).isEqualTo(0L);
    TableRow filter = nodes.get("Filter");
    TableRow scan = nodes.get("Scan parquet");
    assertThat(List.of(filter.get("node_id"), scan.get("node_id"))).isEqualTo(List.of(1L, 2L));
    assertThat(List.of(filter.get("cluster_id"), scan.get("cluster_id"))).isEqualTo(List.of(0L, 0L));
    assertThat((Object[]) filter.get("child_node_ids")).containsExactly(2L);
    assertThat((Object[]) scan.get("parent_node_ids")).containsExactly(1L);
    assertThat((String) filter.get("description")).startsWith("Filter (url = jdbc:mysql://").doesNotContain("secretpw");
  }

  @Test
  void aNewStageAttemptStartsItsValuesAfresh() throws IOException {
    List<String> lines = header(2);
    lines.add(taskEnd(0, 0, 0, true, "[10,100]"));
    lines.add(stageSubmitted(1, 2));
    lines.add(taskEnd(1, 1, 0, true, "[10,7]"));
    lines.add(taskEnd(1, 2, 1, true, "[10,8]"));
    lines.addAll(footer());

    assertThat(operators(lines).get("Scan parquet").get("output_rows")).isEqualTo(15L);
  }

  private Map<String, TableRow> operators(List<String> lines) throws IOException {
    Path log = dir.resolve("app-1");
    Files.write(log, lines);
    ParsedLog parsed = ParsedLog.parse(log, false);
    assertThat(parsed.status().get("bad_lines")).isEqualTo(0L);
    Map<String, TableRow> byName = new java.util.HashMap<>();
    parsed.rows(Table.SQL_OPERATORS).forEach(row -> byName.put((String) row.get("node_name"), row));
    assertThat(byName).hasSize(3);
    return byName;
  }

  /** total, min, median, max and the number of values of one metric of a node. */
  private static List<Long> metric(TableRow node, String name) {
    for (Row metric : (Row[]) node.get("metric_values")) {
      if (metric.getString(0).equals(name)) {
        List<Long> values = new ArrayList<>();
        for (int i = 3; i < 8; i++) {
          values.add(metric.isNullAt(i) ? null : metric.getLong(i));
        }
        return values;
      }
    }
    throw new AssertionError("no metric " + name);
  }

  private static List<String> header(int tasks) {
    return new ArrayList<>(List.of(
        "{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"4.1.0\"}",
        "{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"t\",\"App ID\":\"app-1\",\"Timestamp\":1000,"
            + "\"User\":\"u\"}",
        "{\"Event\":\"" + SQL + "SparkListenerSQLExecutionStart\",\"executionId\":0,\"description\":\"q\","
            + "\"details\":\"\",\"physicalPlanDescription\":\"p\",\"sparkPlanInfo\":" + PLAN + ",\"time\":1000}",
        "{\"Event\":\"SparkListenerJobStart\",\"Job ID\":0,\"Submission Time\":1001,\"Stage Infos\":["
            + stageInfo(0, tasks) + "],\"Stage IDs\":[0],\"Properties\":{\"spark.sql.execution.id\":\"0\"}}",
        stageSubmitted(0, tasks)));
  }

  private static List<String> footer() {
    return List.of(
        "{\"Event\":\"SparkListenerJobEnd\",\"Job ID\":0,\"Completion Time\":1100,\"Job Result\":{\"Result\":"
            + "\"JobSucceeded\"}}",
        "{\"Event\":\"" + SQL + "SparkListenerSQLExecutionEnd\",\"executionId\":0,\"time\":1101}",
        "{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":1200}");
  }

  private static String stageInfo(int attempt, int tasks) {
    return "{\"Stage ID\":0,\"Stage Attempt ID\":" + attempt + ",\"Stage Name\":\"s\",\"Number of Tasks\":" + tasks
        + ",\"RDD Info\":[],\"Parent IDs\":[],\"Details\":\"\",\"Accumulables\":[]}";
  }

  private static String stageSubmitted(int attempt, int tasks) {
    return "{\"Event\":\"SparkListenerStageSubmitted\",\"Stage Info\":" + stageInfo(attempt, tasks).replace(
        "\"Accumulables\"", "\"Submission Time\":1002,\"Accumulables\"") + ",\"Properties\":{}}";
  }

  /** A task end of stage 0 whose SQL accumulables are the (id, update) pairs given, updates logged as strings. */
  private static String taskEnd(int attempt, long taskId, int index, boolean success, String updates) {
    StringBuilder accumulables = new StringBuilder();
    for (String pair : updates.substring(1, updates.length() - 1).split("\\],\\[")) {
      String[] idAndValue = pair.split(",");
      accumulables.append(accumulables.length() == 0 ? "" : ",").append("{\"ID\":").append(idAndValue[0])
          .append(",\"Name\":\"m\",\"Update\":\"").append(idAndValue[1]).append("\",\"Value\":\"")
          .append(idAndValue[1]).append("\",\"Internal\":true,\"Count Failed Values\":true,\"Metadata\":\"sql\"}");
    }
    String reason = success ? "{\"Reason\":\"Success\"}"
        : "{\"Reason\":\"ExceptionFailure\",\"Class Name\":\"java.lang.RuntimeException\",\"Description\":\"boom\","
            + "\"Stack Trace\":[],\"Accumulator Updates\":[]}";
    return "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":0,\"Stage Attempt ID\":" + attempt
        + ",\"Task Type\":\"ResultTask\",\"Task End Reason\":" + reason + ",\"Task Info\":{\"Task ID\":" + taskId
        + ",\"Index\":" + index + ",\"Attempt\":0,\"Partition ID\":" + index + ",\"Launch Time\":1003,"
        + "\"Executor ID\":\"driver\",\"Host\":\"h\",\"Locality\":\"PROCESS_LOCAL\",\"Speculative\":false,"
        + "\"Getting Result Time\":0,\"Finish Time\":1010,\"Failed\":" + !success + ",\"Killed\":false,"
        + "\"Accumulables\":[" + accumulables + "]}}";
  }
}
