package org.perflab.memory.gc;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import org.perflab.errors.BadInputException;

/**
 * The eden/tenured search of reference 004 §2.9: the (E, T) that minimises memory × predicted runtime under the
 * conservative rules of {@link GcCostModel}, and the heap and JVM flags that follow.
 *
 * <p>Search: a 25 × 25 grid over eden sizes from a quarter of the smallest to four times the largest sampled eden
 * (geometric) and tenured sizes from the smallest feasible one to 8 times it (geometric), then a compass search (a
 * derivative-free local search, standing in for the reference's Nelder–Mead simplex) from the best grid point in
 * log-space. Among all evaluated points within {@link #NEAR_EQUAL} of the lowest cost the smallest heap wins (the
 * reference's bias towards the minimal viable configuration). Sizes are rounded up to whole MiB.
 *
 * <p>Without usable telemetry (fewer than {@link #MIN_YOUNG_COLLECTIONS} young collections) the heap is the
 * framework's size × {@link #SAFETY_FACTOR}, the reference's first-run rule (§1.2 step 3, §2.9 step 5).
 */
public final class HeapSizing {
  /** The heap over the framework's size when GC telemetry is missing: the reference's 50 % added. */
  public static final double SAFETY_FACTOR = 1.5;
  /** The fewest young collections the GC model is fitted to. */
  public static final int MIN_YOUNG_COLLECTIONS = 3;
  /** Costs within this share of the lowest count as equal; the smallest heap among them is chosen. */
  public static final double NEAR_EQUAL = 0.01;
  /** The survivor ratio in the flags: survivors are unused (tenuring threshold 0), so they are made small. */
  public static final int SURVIVOR_RATIO = 64;

  private static final long MIB = 1L << 20;
  private static final int GRID = 25;
  private static final double MAX_TENURED_FACTOR = 8;

  private HeapSizing() {}

  /**
   * The heap advice for one executor JVM.
   *
   * @param run the JVM's observed collections and runtime; null or too few young collections falls back to the
   *     safety factor
   * @param frameworkBytes Spark's managed size on that executor (storage plus execution, from Tier A), bytes, positive:
   *     tenured must hold it
   * @param collector the collector to advise for
   */
  public static HeapAdvice advise(GcRun run, long frameworkBytes, Collector collector) {
    BadInputException.require(frameworkBytes > 0,
        "Cannot size a heap: the framework's size is not positive (%d bytes)", frameworkBytes);
    BadInputException.require(collector != null, "Cannot size a heap: the collector is missing (PARALLEL or G1)");
    long young = run == null ? 0 : run.collections().stream()
        .filter(c -> c.kind() == GcObservation.Kind.YOUNG && c.edenBeforeBytes() > 0).count();
    if (young < MIN_YOUNG_COLLECTIONS) {
      return fallback(frameworkBytes, collector, young);
    }
    GcCostModel model = new GcCostModel(run, frameworkBytes);
    Point best = search(model);
    return advice(run, model, best, frameworkBytes, collector);
  }

  /** A point of the search, in bytes, with its cost in byte-milliseconds. */
  record Point(double edenBytes, double tenuredBytes, double cost) {
    double heapBytes() {
      return edenBytes + tenuredBytes;
    }
  }

  /** The chosen (E, T) of {@code model}: the smallest heap among the near-cheapest evaluated points. */
  static Point search(GcCostModel model) {
    double eLo = Math.max(MIB, model.promotion().minEdenBytes() / 4);
    double eHi = Math.max(eLo, model.promotion().maxEdenBytes() * 4);
    List<Point> seen = new ArrayList<>();
    double[] at = {0, 0};
    double bestCost = Double.POSITIVE_INFINITY;
    for (int i = 0; i < GRID; i++) {
      for (int j = 0; j < GRID; j++) {
        double u = Math.log(eLo) + i * (Math.log(eHi) - Math.log(eLo)) / (GRID - 1);
        double v = j * Math.log(MAX_TENURED_FACTOR) / (GRID - 1);
        Point p = evaluate(model, u, v, eLo, eHi, seen);
        if (p.cost() < bestCost) {
          bestCost = p.cost();
          at = new double[] {u, v};
        }
      }
    }
    compass(model, at, Math.max((Math.log(eHi) - Math.log(eLo)) / (GRID - 1), 0.01), eLo, eHi, seen);
    double cheapest = seen.stream().mapToDouble(Point::cost).min().orElseThrow();
    return seen.stream().filter(p -> p.cost() <= cheapest * (1 + NEAR_EQUAL))
        .min(java.util.Comparator.comparingDouble(Point::heapBytes)).orElseThrow();
  }

  /** Compass search from {@code at} = (ln E, ln(T / T_min(E))), halving the step until it is below 0.1 %. */
  private static void compass(GcCostModel model, double[] at, double step, double eLo, double eHi, List<Point> seen) {
    double bestCost = evaluate(model, at[0], at[1], eLo, eHi, seen).cost();
    double[][] moves = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    while (step > 1e-3) {
      boolean moved = false;
      for (double[] m : moves) {
        double u = at[0] + m[0] * step;
        double v = Math.max(0, at[1] + m[1] * step);
        Point p = evaluate(model, u, v, eLo, eHi, seen);
        if (p.cost() < bestCost) {
          bestCost = p.cost();
          at = new double[] {u, v};
          moved = true;
        }
      }
      if (!moved) {
        step /= 2;
      }
    }
  }

  private static Point evaluate(GcCostModel model, double u, double v, double eLo, double eHi, List<Point> seen) {
    double eden = Math.min(eHi, Math.max(eLo, Math.exp(u)));
    double tenured = model.minTenuredBytes(eden) * Math.exp(v);
    Point p = new Point(eden, tenured, model.cost(eden, tenured));
    seen.add(p);
    return p;
  }

  private static HeapAdvice advice(GcRun run, GcCostModel model, Point best, long frameworkBytes,
      Collector collector) {
    long eden = roundUpMib(best.edenBytes());
    long tenured = roundUpMib(Math.max(best.tenuredBytes(), model.minTenuredBytes(eden)));
    GcCostModel.Prediction predicted = model.predict(eden, tenured);
    String evidence = evidence(run, model, frameworkBytes, tenured, eden, predicted);
    if (collector == Collector.G1) {
      return new HeapAdvice(eden + tenured, OptionalLong.empty(), OptionalLong.empty(), collector, List.of(),
          HeapAdvice.Basis.GC_MODEL, predicted.gcMs(),
          "G1: heap only (the GC model describes the Parallel collector; eden and tenured not set); " + evidence);
    }
    long newGen = roundUpMib(eden * (SURVIVOR_RATIO + 2.0) / SURVIVOR_RATIO);
    long heap = newGen + tenured;
    List<String> flags = List.of("-XX:+UseParallelGC", "-Xms" + heap / MIB + "m", "-Xmn" + newGen / MIB + "m",
        "-XX:SurvivorRatio=" + SURVIVOR_RATIO, "-XX:MaxTenuringThreshold=0", "-XX:-UseAdaptiveSizePolicy");
    return new HeapAdvice(heap, OptionalLong.of(eden), OptionalLong.of(tenured), collector, flags,
        HeapAdvice.Basis.GC_MODEL, predicted.gcMs(), "Parallel: " + evidence);
  }

  private static String evidence(GcRun run, GcCostModel model, long frameworkBytes, long tenured, long eden,
      GcCostModel.Prediction predicted) {
    LiveDistribution live = model.live();
    boolean frameworkBound = model.minTenuredBytes(eden) == frameworkBytes && tenured - frameworkBytes < MIB;
    return String.format(Locale.ROOT,
        "GC model from %d young and %d full collections, %.0f MiB allocated; eden sampled %.1f-%.1f MiB; "
            + "max live %.1f MiB%s; tenured %s; predicted %.0f young and %.1f full collections, %.0f ms GC "
            + "(observed %.0f ms); full-GC time %s",
        run.count(GcObservation.Kind.YOUNG), run.count(GcObservation.Kind.FULL), model.allocatedBytes() / MIB,
        model.promotion().minEdenBytes() / MIB, model.promotion().maxEdenBytes() / MIB, live.maxLiveBytes() / MIB,
        live.fullCollections() == 0 ? " (no full collection: mean occupancy)"
            : live.fullCollections() < LiveDistribution.RELIABLE_FULL_COLLECTIONS ? " (few full collections)" : "",
        frameworkBound ? "bound by the framework's size" : "from the cost minimum", predicted.youngCollections(),
        predicted.fullCollections(), predicted.gcMs(), run.gcMs(), model.times().fullBasis());
  }

  private static HeapAdvice fallback(long frameworkBytes, Collector collector, long young) {
    long heap = roundUpMib(frameworkBytes * SAFETY_FACTOR);
    return new HeapAdvice(heap, OptionalLong.empty(), OptionalLong.empty(), collector, List.of(),
        HeapAdvice.Basis.SAFETY_FACTOR, Double.NaN, String.format(Locale.ROOT,
            "no GC telemetry (%d young collections, need %d): heap = framework %.1f MiB x %.1f", young,
            MIN_YOUNG_COLLECTIONS, frameworkBytes / (double) MIB, SAFETY_FACTOR));
  }

  private static long roundUpMib(double bytes) {
    return (long) Math.ceil(bytes / MIB) * MIB;
  }
}
