package org.perflab.queueing;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.perflab.sim.Model;
import org.perflab.sim.Stage;

/** A precedence DAG over named nodes: predecessors, successors, a topological order and ancestor sets. */
public final class PrecedenceGraph {
  final int size;
  final List<List<Integer>> pre = new ArrayList<>();
  final List<List<Integer>> succ = new ArrayList<>();
  final List<Integer> order = new ArrayList<>();
  final BitSet[] ancestors;

  /** {@code preNames.get(i)} names node i's predecessors among {@code names}. */
  PrecedenceGraph(List<String> names, List<List<String>> preNames) {
    size = names.size();
    Map<String, Integer> index = new HashMap<>();
    for (int i = 0; i < size; i++) {
      index.put(names.get(i), i);
      pre.add(new ArrayList<>());
      succ.add(new ArrayList<>());
    }
    int[] indegree = new int[size];
    for (int i = 0; i < size; i++) {
      for (String p : preNames.get(i)) {
        Integer j = index.get(p);
        if (j == null) {
          throw new IllegalArgumentException("Cannot build the DAG: " + names.get(i) + " has unknown pre (" + p + ")");
        }
        pre.get(i).add(j);
        succ.get(j).add(i);
        indegree[i]++;
      }
    }
    for (int i = 0; i < size; i++) {
      if (indegree[i] == 0) {
        order.add(i);
      }
    }
    for (int h = 0; h < order.size(); h++) {
      for (int s : succ.get(order.get(h))) {
        if (--indegree[s] == 0) {
          order.add(s);
        }
      }
    }
    if (order.size() != size) {
      throw new IllegalArgumentException("Cannot build the DAG: it has a cycle");
    }
    ancestors = new BitSet[size];
    for (int s : order) {
      ancestors[s] = new BitSet(size);
      for (int p : pre.get(s)) {
        ancestors[s].set(p);
        ancestors[s].or(ancestors[p]);
      }
    }
  }

  /** The graph of a simulator model's stages, node i being stage i. */
  static PrecedenceGraph of(Model model) {
    return new PrecedenceGraph(model.stages().stream().map(Stage::name).toList(),
        model.stages().stream().map(Stage::pre).toList());
  }

  /** The indices of the model's stages in a topological order: each stage after all its predecessors. */
  public static List<Integer> topologicalOrder(Model model) {
    return List.copyOf(of(model).order);
  }

  /** Whether one of the two nodes precedes the other. */
  boolean ordered(int a, int b) {
    return ancestors[a].get(b) || ancestors[b].get(a);
  }
}
