package org.perflab.queueing;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.perflab.sim.Model;
import org.perflab.sim.Stage;

/**
 * The task-precedence model of Mak and Lundstrom (1990) as reference 001 specifies it: an approximate MVA over a
 * DAG of nodes with service demands at shared centers, inflating each node's residence time by the queue that
 * overlapping nodes build, and reducing the DAG with exponential-max parallel branches.
 *
 * <p>One iteration: with {@code R_i = Σ_k R_ik}, walk the DAG for mean start and finish times (a node starts at the
 * exponential max of its predecessors' finishes); the overlap factor of i with j is the overlap of their mean
 * intervals divided by {@code R_i} (0 when one precedes the other); {@code Q_jk = R_jk / R_j},
 * {@code A_ik = Σ_{j≠i} θ_ij Q_jk}, and {@code R_ik = D_ik (1 + A_ik)} at queueing centers ({@code D_ik} at delay
 * centers). Iterate until no {@code R_i} moves by more than epsilon. The application time reduces the DAG: series
 * nodes add; parallel nodes (same predecessors and successors) combine as {@code E[max]} of exponentials,
 * {@code a + b − ab/(a+b)}; a DAG that is not series-parallel falls back to the walk's exponential max over sinks.
 */
public final class TaskPrecedenceAmva {
  private TaskPrecedenceAmva() {}

  /** A DAG node: a name, its demand at each center (time units), and the names of its predecessors. */
  public record Node(String name, double[] demands, List<String> pre) {}

  /** The solution: the application time, each node's residence time, and how the iteration ended. */
  public record Solution(double responseTime, double[] nodeResponse, int iterations, boolean converged) {}

  /**
   * Solves the model; {@code queueing[k]} tells whether center k queues (else it is a delay center).
   *
   * @param epsilon convergence threshold on node residence times, in time units
   */
  public static Solution solve(List<Node> nodes, boolean[] queueing, double epsilon, int maxIterations) {
    Dag dag = new Dag(nodes);
    int n = nodes.size();
    int c = queueing.length;
    double[][] r = new double[n][];
    for (int i = 0; i < n; i++) {
      r[i] = nodes.get(i).demands().clone();
    }
    double[] total = totals(r);
    int iteration = 0;
    boolean converged = false;
    while (!converged && iteration < maxIterations) {
      iteration++;
      double[][] theta = dag.overlaps(total);
      double[][] next = new double[n][c];
      for (int i = 0; i < n; i++) {
        for (int k = 0; k < c; k++) {
          double d = nodes.get(i).demands()[k];
          if (!queueing[k]) {
            next[i][k] = d;
            continue;
          }
          double arrival = 0;
          for (int j = 0; j < n; j++) {
            if (j != i && theta[i][j] > 0 && total[j] > 0) {
              arrival += theta[i][j] * r[j][k] / total[j];
            }
          }
          next[i][k] = d * (1 + arrival);
        }
      }
      double[] nextTotal = totals(next);
      double change = 0;
      for (int i = 0; i < n; i++) {
        change = Math.max(change, Math.abs(nextTotal[i] - total[i]));
      }
      r = next;
      total = nextTotal;
      converged = change < epsilon;
    }
    return new Solution(dag.reduce(total), total, iteration, converged);
  }

  /**
   * The model for a simulator model on {@code k} slots: one queueing center, and each stage's demand is its waves
   * times its mean task time, {@code ceil(tasks / k) · mean} (the authors' "averageCalc" extrapolation).
   */
  public static Solution solve(Model model, int k, double epsilon, int maxIterations) {
    List<Node> nodes = new ArrayList<>();
    for (Stage s : model.stages()) {
      double waves = Math.ceil(s.tasks() / (double) k);
      nodes.add(new Node(s.name(), new double[] {waves * s.distribution().mean()}, s.pre()));
    }
    return solve(nodes, new boolean[] {true}, epsilon, maxIterations);
  }

  /** Mean of the maximum of two independent exponentials with means a and b. */
  public static double expMax(double a, double b) {
    if (a <= 0 || b <= 0) {
      return Math.max(a, b);
    }
    return a + b - a * b / (a + b);
  }

  private static double[] totals(double[][] r) {
    double[] t = new double[r.length];
    for (int i = 0; i < r.length; i++) {
      for (double x : r[i]) {
        t[i] += x;
      }
    }
    return t;
  }

  /** The precedence structure with the walk, the overlaps and the reduction. */
  private static final class Dag {
    private final int n;
    private final List<List<Integer>> pre;
    private final List<List<Integer>> succ;
    private final List<Integer> order;
    private final PrecedenceGraph graph;

    Dag(List<Node> nodes) {
      graph = new PrecedenceGraph(
          nodes.stream().map(Node::name).toList(), nodes.stream().map(Node::pre).toList());
      n = graph.size;
      pre = graph.pre;
      succ = graph.succ;
      order = graph.order;
    }

    /** Mean start times by walking the DAG, a node starting at the exponential max of its predecessors' finishes. */
    double[] starts(double[] r) {
      double[] start = new double[n];
      for (int s : order) {
        double t = 0;
        boolean first = true;
        for (int p : pre.get(s)) {
          double f = start[p] + r[p];
          t = first ? f : expMax(t, f);
          first = false;
        }
        start[s] = t;
      }
      return start;
    }

    double[][] overlaps(double[] r) {
      double[] start = starts(r);
      double[][] theta = new double[n][n];
      for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
          if (i == j || r[i] <= 0 || graph.ordered(i, j)) {
            continue;
          }
          double overlap = Math.min(start[i] + r[i], start[j] + r[j]) - Math.max(start[i], start[j]);
          theta[i][j] = Math.max(0, Math.min(1, overlap / r[i]));
        }
      }
      return theta;
    }

    /** Series-parallel reduction of node times; falls back to the walk when the DAG is not series-parallel. */
    double reduce(double[] r) {
      double[] t = r.clone();
      List<BitSet> p = new ArrayList<>();
      List<BitSet> s = new ArrayList<>();
      int source = n;
      int sink = n + 1;
      for (int i = 0; i < n; i++) {
        BitSet pi = new BitSet();
        pre.get(i).forEach(pi::set);
        if (pi.isEmpty()) {
          pi.set(source);
        }
        BitSet si = new BitSet();
        succ.get(i).forEach(si::set);
        if (si.isEmpty()) {
          si.set(sink);
        }
        p.add(pi);
        s.add(si);
      }
      BitSet alive = new BitSet();
      alive.set(0, n);
      boolean changed = true;
      while (alive.cardinality() > 1 && changed) {
        changed = series(t, p, s, alive, sink) || parallel(t, p, s, alive);
      }
      if (alive.cardinality() == 1) {
        return t[alive.nextSetBit(0)];
      }
      double[] start = starts(r);
      double end = 0;
      boolean first = true;
      for (int i = 0; i < n; i++) {
        if (succ.get(i).isEmpty()) {
          end = first ? start[i] + r[i] : expMax(end, start[i] + r[i]);
          first = false;
        }
      }
      return end;
    }

    private static boolean series(double[] t, List<BitSet> p, List<BitSet> s, BitSet alive, int sink) {
      for (int x = alive.nextSetBit(0); x >= 0; x = alive.nextSetBit(x + 1)) {
        if (s.get(x).cardinality() != 1) {
          continue;
        }
        int y = s.get(x).nextSetBit(0);
        if (y == sink || p.get(y).cardinality() != 1) {
          continue;
        }
        t[x] += t[y];
        s.set(x, s.get(y));
        for (int z = s.get(y).nextSetBit(0); z >= 0; z = s.get(y).nextSetBit(z + 1)) {
          if (z < p.size()) {
            p.get(z).clear(y);
            p.get(z).set(x);
          }
        }
        alive.clear(y);
        return true;
      }
      return false;
    }

    private static boolean parallel(double[] t, List<BitSet> p, List<BitSet> s, BitSet alive) {
      for (int x = alive.nextSetBit(0); x >= 0; x = alive.nextSetBit(x + 1)) {
        for (int y = alive.nextSetBit(x + 1); y >= 0; y = alive.nextSetBit(y + 1)) {
          if (p.get(x).equals(p.get(y)) && s.get(x).equals(s.get(y))) {
            t[x] = expMax(t[x], t[y]);
            for (int q = p.get(y).nextSetBit(0); q >= 0; q = p.get(y).nextSetBit(q + 1)) {
              if (q < s.size()) {
                s.get(q).clear(y);
              }
            }
            for (int z = s.get(y).nextSetBit(0); z >= 0; z = s.get(y).nextSetBit(z + 1)) {
              if (z < p.size()) {
                p.get(z).clear(y);
              }
            }
            alive.clear(y);
            return true;
          }
        }
      }
      return false;
    }
  }
}
