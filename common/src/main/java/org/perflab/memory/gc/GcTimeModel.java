package org.perflab.memory.gc;

import java.util.List;
import org.perflab.errors.BadInputException;
import org.perflab.scaling.Ols;

/**
 * GC pause times as functions of the sizes involved (reference 004 §2.8.7).
 *
 * <p>Young: t_e(p) = max(t_min, a + b × p), a least-squares line of each young collection's pause on its promoted bytes,
 * never below the shortest young pause observed; with fewer than two distinct promoted sizes, the mean pause.
 *
 * <p>Full: with one tenured size observed, the mean full pause (constant); with several, the line t_f = α + β × T over
 * the tenured capacities, refitted through the origin (t_f = β × T) when α is negative, so that small heaps never get
 * negative times. Without any full collection, the reference gives no rule; this model assumes a full collection
 * copies the whole tenured space at the young collections' copying rate, t_f(T) = max(t_min, b × T), with b the young
 * slope (or, when that is not positive, the mean young pause per promoted byte).
 *
 * @param youngInterceptMs a, milliseconds
 * @param youngMsPerByte b, milliseconds per promoted byte
 * @param youngMinMs t_min, the shortest young pause observed, milliseconds
 * @param fullInterceptMs α, milliseconds
 * @param fullMsPerTenuredByte β, milliseconds per byte of tenured capacity
 * @param fullBasis how the full-collection time was fitted
 */
public record GcTimeModel(double youngInterceptMs, double youngMsPerByte, double youngMinMs, double fullInterceptMs,
    double fullMsPerTenuredByte, FullBasis fullBasis) {

  /** How the full-collection time model was obtained. */
  public enum FullBasis {
    /** Mean of the full pauses at the one tenured size observed. */
    CONSTANT,
    /** Least-squares line over several tenured sizes. */
    LINEAR,
    /** Line through the origin, because the free fit's intercept was negative. */
    ZERO_INTERCEPT,
    /** No full collection observed: the young copying rate over the whole tenured space. */
    FROM_YOUNG_RATE
  }

  /** The model fitted to {@code collections}; needs at least one young collection. */
  public static GcTimeModel fit(List<GcObservation> collections) {
    double[][] young = points(collections, GcObservation.Kind.YOUNG);
    BadInputException.require(young[0].length > 0,
        "Cannot fit GC times: no young collection (%d collections)", collections.size());
    double minMs = min(young[1]);
    double[] line = Ols.line(young[0], young[1]);
    if (line == null) {
      line = new double[] {mean(young[1]), 0};
    }
    double[][] full = points(collections, GcObservation.Kind.FULL);
    if (full[0].length == 0) {
      double rate = line[1] > 0 ? line[1] : sum(young[1]) / Math.max(1, sum(young[0]));
      return new GcTimeModel(line[0], line[1], minMs, 0, rate, FullBasis.FROM_YOUNG_RATE);
    }
    double[] fullLine = Ols.line(full[0], full[1]);
    if (fullLine == null) {
      return new GcTimeModel(line[0], line[1], minMs, mean(full[1]), 0, FullBasis.CONSTANT);
    }
    if (fullLine[0] < 0) {
      return new GcTimeModel(line[0], line[1], minMs, 0, Ols.slopeThroughOrigin(full[0], full[1]),
          FullBasis.ZERO_INTERCEPT);
    }
    return new GcTimeModel(line[0], line[1], minMs, fullLine[0], fullLine[1], FullBasis.LINEAR);
  }

  /** The predicted pause of a young collection promoting {@code promotedBytes}, milliseconds. */
  public double youngMs(double promotedBytes) {
    return Math.max(youngMinMs, youngInterceptMs + youngMsPerByte * promotedBytes);
  }

  /** The predicted pause of a full collection with a tenured capacity of {@code tenuredBytes}, milliseconds. */
  public double fullMs(double tenuredBytes) {
    double ms = fullInterceptMs + fullMsPerTenuredByte * tenuredBytes;
    return fullBasis == FullBasis.FROM_YOUNG_RATE ? Math.max(youngMinMs, ms) : Math.max(0, ms);
  }

  /** x = promoted bytes (young) or tenured capacity (full), y = pause ms. */
  private static double[][] points(List<GcObservation> collections, GcObservation.Kind kind) {
    List<GcObservation> of = collections.stream().filter(c -> c.kind() == kind).toList();
    double[] x = new double[of.size()];
    double[] y = new double[of.size()];
    for (int i = 0; i < x.length; i++) {
      GcObservation c = of.get(i);
      x[i] = kind == GcObservation.Kind.YOUNG ? c.promotedBytes() : c.tenuredCapacityBytes();
      y[i] = c.pauseMs();
    }
    return new double[][] {x, y};
  }

  private static double min(double[] v) {
    return java.util.Arrays.stream(v).min().orElse(0);
  }

  private static double mean(double[] v) {
    return sum(v) / v.length;
  }

  private static double sum(double[] v) {
    return java.util.Arrays.stream(v).sum();
  }
}
