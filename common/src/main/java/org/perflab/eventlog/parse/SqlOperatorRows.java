package org.perflab.eventlog.parse;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.table.Table;
import org.perflab.table.TableRow;

/** The {@code sql_operators} rows of one execution: a row per node of its last plan graph, with metric values. */
final class SqlOperatorRows {
  private static final String OUTPUT_ROWS = "number of output rows";
  private static final String SPILL_SIZE = "spill size";
  private static final String TIMING = "timing";
  private static final String NS_TIMING = "nsTiming";
  private static final long NANOS_PER_MS = 1_000_000L;

  private SqlOperatorRows() {}

  static void emit(SqlExecutionAccumulator execution, Redactor redactor, Consumer<TableRow> sink) {
    PlanGraph graph = execution.graph;
    if (graph == null) {
      return;
    }
    Map<Long, SqlMetricValue> values = execution.metricValues == null ? Map.of() : execution.metricValues;
    Map<Long, List<Long>> children = new HashMap<>();
    Map<Long, List<Long>> parents = new HashMap<>();
    for (PlanGraph.Edge edge : graph.edges) {
      children.computeIfAbsent(edge.toId(), id -> new ArrayList<>()).add(edge.fromId());
      parents.computeIfAbsent(edge.fromId(), id -> new ArrayList<>()).add(edge.toId());
    }
    Map<Long, Long> outputRows = new HashMap<>();
    for (PlanGraph.Node node : graph.nodes) {
      Long rows = total(node, OUTPUT_ROWS, values);
      if (rows != null) {
        outputRows.put(node.id(), rows);
      }
    }
    for (PlanGraph.Node node : graph.nodes) {
      List<Long> inputs = children.getOrDefault(node.id(), List.of());
      sink.accept(Table.SQL_OPERATORS.newRow()
          .set("execution_id", execution.executionId)
          .set("node_id", node.id())
          .set("node_name", redacted(node.name(), redactor))
          .set("description", redacted(node.description(), redactor))
          .set("is_cluster", node.cluster())
          .set("cluster_id", node.clusterId())
          .set("child_node_ids", inputs.toArray(new Long[0]))
          .set("parent_node_ids", parents.getOrDefault(node.id(), List.of()).toArray(new Long[0]))
          .set("output_rows", outputRows.get(node.id()))
          .set("input_rows", inputRows(inputs, outputRows))
          .set("time_ms", timeMs(node, values))
          .set("spill_bytes", total(node, SPILL_SIZE, values))
          .set("metrics", totals(node, values))
          .set("metric_values", metricValues(node, values)));
    }
  }

  private static String redacted(String text, Redactor redactor) {
    return text == null || text.isEmpty() ? text : redactor.redactText(text);
  }

  private static Long total(PlanGraph.Node node, String name, Map<Long, SqlMetricValue> values) {
    for (PlanGraph.Metric metric : node.metrics()) {
      SqlMetricValue value = values.get(metric.accumulatorId());
      if (metric.name().equals(name) && value != null) {
        return value.total();
      }
    }
    return null;
  }

  private static Long inputRows(List<Long> inputs, Map<Long, Long> outputRows) {
    Long sum = null;
    for (long child : inputs) {
      Long rows = outputRows.get(child);
      if (rows != null) {
        sum = (sum == null ? 0 : sum) + rows;
      }
    }
    return sum;
  }

  private static Long timeMs(PlanGraph.Node node, Map<Long, SqlMetricValue> values) {
    Long ms = null;
    for (PlanGraph.Metric metric : node.metrics()) {
      SqlMetricValue value = values.get(metric.accumulatorId());
      boolean timing = TIMING.equals(metric.type()) || NS_TIMING.equals(metric.type());
      if (timing && value != null && value.total() != null) {
        long total = NS_TIMING.equals(metric.type()) ? value.total() / NANOS_PER_MS : value.total();
        ms = (ms == null ? 0 : ms) + total;
      }
    }
    return ms;
  }

  private static Map<String, Long> totals(PlanGraph.Node node, Map<Long, SqlMetricValue> values) {
    Map<String, Long> totals = new TreeMap<>();
    for (PlanGraph.Metric metric : node.metrics()) {
      SqlMetricValue value = values.get(metric.accumulatorId());
      if (value != null && value.total() != null) {
        totals.putIfAbsent(metric.name(), value.total());
      }
    }
    return totals;
  }

  private static Row[] metricValues(PlanGraph.Node node, Map<Long, SqlMetricValue> values) {
    Row[] rows = new Row[node.metrics().size()];
    for (int i = 0; i < rows.length; i++) {
      PlanGraph.Metric metric = node.metrics().get(i);
      SqlMetricValue value = values.get(metric.accumulatorId());
      rows[i] = value == null
          ? RowFactory.create(metric.name(), metric.type(), metric.accumulatorId(), null, null, null, null, null)
          : RowFactory.create(metric.name(), metric.type(), metric.accumulatorId(), value.total(), value.min(),
              value.median(), value.max(), value.values());
    }
    return rows;
  }
}
