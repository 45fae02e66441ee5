package org.perflab.eventlog.parse;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The operator graph of a SQL execution as the History Server draws it from a {@code sparkPlanInfo} tree: the same
 * node ids, the same {@code WholeStageCodegen} clusters, the same edges. Wrapper nodes the UI hides
 * ({@code InputAdapter}, query stages) are skipped, and a reused exchange or subquery points to the original node.
 * Node descriptions are kept as logged; the caller redacts them.
 */
final class PlanGraph {
  private static final String SUBQUERY = "Subquery";

  /** One SQL metric of a plan node, as {@code SQLPlanMetric}: type is sum, size, timing, nsTiming or average. */
  record Metric(String name, long accumulatorId, String type) {}

  /** One node; {@code clusterId} is the id of the WholeStageCodegen cluster holding it, or null. */
  record Node(long id, String name, String description, boolean cluster, Long clusterId, List<Metric> metrics) {}

  /** An edge from a child (the operator's input) to its parent. */
  record Edge(long fromId, long toId) {}

  final List<Node> nodes = new ArrayList<>();
  final List<Edge> edges = new ArrayList<>();

  private PlanGraph() {}

  /** The graph of a {@code sparkPlanInfo} object; throws {@code Json.MissingFieldException} on a malformed one. */
  static PlanGraph of(JsonNode sparkPlanInfo) {
    PlanGraph graph = new PlanGraph();
    graph.build(PlanInfo.of(sparkPlanInfo), null, null, new Builder());
    return graph;
  }

  /** Every metric of every node, clusters included. */
  List<Metric> metrics() {
    List<Metric> all = new ArrayList<>();
    nodes.forEach(node -> all.addAll(node.metrics()));
    return all;
  }

  private static final class Builder {
    long nextId;
    /** Exchanges and subqueries built so far, for the reused ones to point to. */
    final Map<PlanInfo, Node> exchanges = new HashMap<>();
  }

  private void build(PlanInfo info, Node parent, Node cluster, Builder builder) {
    String name = info.name;
    if (name.startsWith("WholeStageCodegen")) {
      Node codegen = new Node(builder.nextId++, name, info.description, true, null, info.metrics);
      nodes.add(codegen);
      build(info.children.get(0), parent, codegen, builder);
    } else if (name.equals("InputAdapter") || name.equals("TableCacheQueryStage")
        || name.equals("ResultQueryStage")) {
      build(info.children.get(0), parent, null, builder);
    } else if (name.equals("BroadcastQueryStage") || name.equals("ShuffleQueryStage")) {
      linkOrBuild(info.children.get(0), parent, builder);
    } else if (name.equals(SUBQUERY) && cluster != null) {
      // A subquery is never drawn inside a WholeStageCodegen cluster.
      build(info, parent, null, builder);
    } else if (name.equals(SUBQUERY) && builder.exchanges.containsKey(info)) {
      Edge edge = new Edge(builder.exchanges.get(info).id(), parent.id());
      if (!edges.contains(edge)) {
        edges.add(edge);
      }
    } else if (name.equals("ReusedSubquery")) {
      build(info.children.get(0), parent, cluster, builder);
    } else if (name.equals("ReusedExchange") && builder.exchanges.containsKey(info.children.get(0))) {
      edges.add(new Edge(builder.exchanges.get(info.children.get(0)).id(), parent.id()));
    } else {
      Node node = new Node(builder.nextId++, name, info.description, false, cluster == null ? null : cluster.id(),
          info.metrics);
      nodes.add(node);
      if (name.contains("Exchange") || name.equals(SUBQUERY)) {
        builder.exchanges.put(info, node);
      }
      if (parent != null) {
        edges.add(new Edge(node.id(), parent.id()));
      }
      info.children.forEach(child -> build(child, node, cluster, builder));
    }
  }

  private void linkOrBuild(PlanInfo stage, Node parent, Builder builder) {
    Node built = builder.exchanges.get(stage);
    if (built != null) {
      edges.add(new Edge(built.id(), parent.id()));
    } else {
      build(stage, parent, null, builder);
    }
  }

  /** A {@code sparkPlanInfo} node; equal, as Spark's {@code SparkPlanInfo}, on name, text and children only. */
  private static final class PlanInfo {
    final String name;
    final String description;
    final List<PlanInfo> children;
    final List<Metric> metrics;
    private final int hash;

    private PlanInfo(String name, String description, List<PlanInfo> children, List<Metric> metrics) {
      this.name = name;
      this.description = description;
      this.children = children;
      this.metrics = metrics;
      this.hash = Objects.hashCode(description);
    }

    static PlanInfo of(JsonNode json) {
      List<PlanInfo> children = new ArrayList<>();
      JsonNode childrenJson = Json.node(json, "children");
      if (childrenJson != null) {
        childrenJson.forEach(child -> children.add(of(child)));
      }
      List<Metric> metrics = new ArrayList<>();
      JsonNode metricsJson = Json.node(json, "metrics");
      if (metricsJson != null) {
        for (JsonNode metric : metricsJson) {
          metrics.add(new Metric(Json.requireText(metric, "name"), Json.requireLong(metric, "accumulatorId"),
              Json.requireText(metric, "metricType")));
        }
      }
      return new PlanInfo(Json.requireText(json, "nodeName"), Json.text(json, "simpleString"), List.copyOf(children),
          List.copyOf(metrics));
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof PlanInfo that && hash == that.hash && name.equals(that.name)
          && Objects.equals(description, that.description) && children.equals(that.children);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }
}
