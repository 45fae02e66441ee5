package org.perflab.memory.gc;

/**
 * Predicted collections, GC time and cost of one JVM at an eden size E and a tenured size T (reference 004 §2.8.4–
 * §2.8.7, §2.9), from one observed run:
 *
 * <pre>
 *   N_e(E)    = A / E
 *   N_full    = N_e(E) × E_L[min(1, p(E) / (T − L))]
 *   G(E, T)   = N_e × t_e(p(E)) + N_full × t_f(T)
 *   R(E, T)   = (observed runtime − observed GC time) + G(E, T)
 *   cost      = (E + T) × R(E, T)        (memory × time, byte-milliseconds)
 * </pre>
 *
 * A configuration is feasible when tenured holds the framework's managed size, T ≥ framework bytes, and keeps an
 * eden-sized headroom above the largest live size, T − max L ≥ E (the reference's conservative rule against the JVM's
 * forced full collections; this model treats a violation as infeasible). The parallelism is the observed one.
 */
public final class GcCostModel {
  private final double allocatedBytes;
  private final double nonGcMs;
  private final PromotionCurve promotion;
  private final LiveDistribution live;
  private final GcTimeModel times;
  private final long frameworkBytes;

  /**
   * The model of {@code run}, which needs at least one young collection of a non-empty eden.
   *
   * @param frameworkBytes Spark's estimated managed size that tenured must hold, bytes (0 for none)
   */
  public GcCostModel(GcRun run, long frameworkBytes) {
    this.allocatedBytes = run.allocatedBytes();
    this.nonGcMs = Math.max(0, run.runtimeMs() - run.gcMs());
    this.promotion = PromotionCurve.fit(run.collections(), true);
    this.live = LiveDistribution.of(run);
    this.times = GcTimeModel.fit(run.collections());
    this.frameworkBytes = Math.max(0, frameworkBytes);
  }

  /**
   * A prediction at one configuration.
   *
   * @param youngCollections predicted eden collections
   * @param fullCollections predicted full collections (+∞ when out-of-memory is predicted)
   * @param gcMs predicted total pause time, milliseconds
   * @param runtimeMs predicted wall time, milliseconds
   */
  public record Prediction(double youngCollections, double fullCollections, double gcMs, double runtimeMs) {}

  /** The prediction at eden {@code edenBytes} and tenured {@code tenuredBytes} (bytes, positive). */
  public Prediction predict(double edenBytes, double tenuredBytes) {
    double young = allocatedBytes / edenBytes;
    double promoted = promotion.promotedBytes(edenBytes);
    double full = young * live.fullPerYoung(promoted, tenuredBytes);
    double gcMs = young * times.youngMs(promoted) + (full == 0 ? 0 : full * times.fullMs(tenuredBytes));
    return new Prediction(young, full, gcMs, nonGcMs + gcMs);
  }

  /** Whether (E, T) meets the framework bound and the eden-headroom rule (see the class comment). */
  public boolean feasible(double edenBytes, double tenuredBytes) {
    return tenuredBytes >= frameworkBytes && tenuredBytes - live.maxLiveBytes() >= edenBytes;
  }

  /** The smallest feasible tenured size for eden {@code edenBytes}, bytes. */
  public double minTenuredBytes(double edenBytes) {
    return Math.max(frameworkBytes, live.maxLiveBytes() + edenBytes);
  }

  /** (E + T) × predicted runtime, byte-milliseconds; +∞ when infeasible. */
  public double cost(double edenBytes, double tenuredBytes) {
    if (!feasible(edenBytes, tenuredBytes)) {
      return Double.POSITIVE_INFINITY;
    }
    return (edenBytes + tenuredBytes) * predict(edenBytes, tenuredBytes).runtimeMs();
  }

  public PromotionCurve promotion() {
    return promotion;
  }

  public LiveDistribution live() {
    return live;
  }

  public GcTimeModel times() {
    return times;
  }

  /** A, the run's allocated bytes. */
  public double allocatedBytes() {
    return allocatedBytes;
  }
}
