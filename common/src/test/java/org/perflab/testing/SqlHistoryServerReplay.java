package org.perflab.testing;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.execution.ui.SQLAppStatusListener;
import org.apache.spark.sql.execution.ui.SQLAppStatusStore;
import org.apache.spark.sql.execution.ui.SQLExecutionUIData;
import org.apache.spark.sql.execution.ui.SQLPlanMetric;
import org.apache.spark.sql.execution.ui.SparkPlanGraph;
import org.apache.spark.sql.execution.ui.SparkPlanGraphCluster;
import org.apache.spark.sql.execution.ui.SparkPlanGraphEdge;
import org.apache.spark.sql.execution.ui.SparkPlanGraphNode;
import org.apache.spark.status.ElementTrackingStore;
import org.apache.spark.util.kvstore.InMemoryStore;
import scala.Option;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Replays an event log through Spark's own {@code SQLAppStatusListener}, as the History Server builds its SQL tab, and
 * returns per SQL execution the plan graph and the metric values as the tab shows them (Spark's rendered strings).
 */
public final class SqlHistoryServerReplay {
  /** A metric of a node: name, accumulator id, type, and the string the SQL tab shows (null when it shows none). */
  public record Metric(String name, long accumulatorId, String type, String shown) {}

  /** A plan graph node. */
  public record Node(long id, String name, boolean cluster, List<Metric> metrics) {}

  /** One execution: its nodes by id and its edges as "child->parent". */
  public record Execution(Map<Long, Node> nodes, List<String> edges) {}

  private SqlHistoryServerReplay() {}

  /** Per execution id, what the SQL tab shows for the log at {@code path}. */
  public static Map<Long, Execution> replay(String path) throws IOException {
    SparkConf conf = new SparkConf().set("spark.appStateStore.asyncTracking.enable", "false");
    InMemoryStore store = new InMemoryStore();
    ElementTrackingStore tracking = new ElementTrackingStore(store, conf);
    HistoryServerReplay.replayInto(path, new SQLAppStatusListener(conf, tracking, false));
    tracking.close(false);
    SQLAppStatusStore status = new SQLAppStatusStore(store, Option.empty());
    Map<Long, Execution> executions = new LinkedHashMap<>();
    for (SQLExecutionUIData execution : CollectionConverters.asJava(status.executionsList())) {
      long id = execution.executionId();
      executions.put(id, execution(status.planGraph(id), CollectionConverters.asJava(status.executionMetrics(id))));
    }
    return executions;
  }

  private static Execution execution(SparkPlanGraph graph, Map<Object, String> shown) {
    Map<Long, Node> nodes = new LinkedHashMap<>();
    for (SparkPlanGraphNode node : CollectionConverters.asJava(graph.allNodes())) {
      List<Metric> metrics = new ArrayList<>();
      for (SQLPlanMetric metric : CollectionConverters.asJava(node.metrics())) {
        metrics.add(new Metric(metric.name(), metric.accumulatorId(), metric.metricType(),
            shown.get(metric.accumulatorId())));
      }
      nodes.put(node.id(), new Node(node.id(), node.name(), node instanceof SparkPlanGraphCluster, metrics));
    }
    List<String> edges = new ArrayList<>();
    for (SparkPlanGraphEdge edge : CollectionConverters.asJava(graph.edges())) {
      edges.add(edge.fromId() + "->" + edge.toId());
    }
    return new Execution(nodes, edges);
  }
}
