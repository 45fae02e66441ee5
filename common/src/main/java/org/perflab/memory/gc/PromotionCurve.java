package org.perflab.memory.gc;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.perflab.errors.BadInputException;

/**
 * The promotion curve p(E): the bytes an eden collection promotes, as a non-decreasing function of the eden size E
 * (reference 004 §2.8.5).
 *
 * <p>Built from young collections' (effective eden, promoted) pairs sorted by eden size: the mean of a sliding window of
 * 10 % of the samples is assigned to the window's largest eden size, and, in the conservative form, a running maximum
 * makes the curve non-decreasing (a loading phase's jump persists). Between points the curve is linear. Outside the
 * sampled range it extrapolates conservatively from the monotonicity argument: flat, p(E_min), below the smallest
 * sampled eden; proportional, p(E_max) × E / E_max, above the largest. Collections at (nearly) the same eden size
 * form one point (see {@link #SAME_EDEN}).
 */
public final class PromotionCurve {
  /** The sliding window's share of all samples (the reference's 10 %). */
  public static final double WINDOW_SHARE = 0.10;
  /**
   * Eden sizes within this share of each other count as one size: their samples form one point whose window holds them
   * all. Without it, a run at a fixed eden (sizes differing by a few objects) would yield a running maximum over an
   * arbitrary order of its collections instead of their mean.
   */
  public static final double SAME_EDEN = 0.01;

  private final double[] eden;
  private final double[] promoted;

  private PromotionCurve(double[] eden, double[] promoted) {
    this.eden = eden;
    this.promoted = promoted;
  }

  /**
   * The curve through the young collections of {@code collections} (full collections and collections of an empty eden
   * are ignored).
   *
   * @param conservative with the running maximum (the reference's conservative curve); without it, the local window
   *     means (the less conservative variant of reference §2.8.5, which may decrease)
   * @throws BadInputException when there is no young collection of a non-empty eden
   */
  public static PromotionCurve fit(List<GcObservation> collections, boolean conservative) {
    GcObservation[] samples = collections.stream()
        .filter(c -> c.kind() == GcObservation.Kind.YOUNG && c.edenBeforeBytes() > 0)
        .sorted(Comparator.comparingLong(GcObservation::edenBeforeBytes))
        .toArray(GcObservation[]::new);
    BadInputException.require(samples.length > 0,
        "Cannot fit a promotion curve: no young collection of a non-empty eden (%d collections)", collections.size());
    int window = Math.max(1, (int) Math.ceil(WINDOW_SHARE * samples.length));
    double[] prefix = new double[samples.length + 1];
    for (int j = 0; j < samples.length; j++) {
      prefix[j + 1] = prefix[j] + samples[j].promotedBytes();
    }
    List<double[]> points = new java.util.ArrayList<>();
    int groupStart = 0;
    for (int j = 0; j < samples.length; j++) {
      double eden = samples[j].edenBeforeBytes();
      if (j + 1 < samples.length && samples[j + 1].edenBeforeBytes() <= eden * (1 + SAME_EDEN)) {
        continue;
      }
      int from = Math.min(groupStart, Math.max(0, j + 1 - window));
      double mean = (prefix[j + 1] - prefix[from]) / (j + 1 - from);
      double last = points.isEmpty() ? 0 : points.get(points.size() - 1)[1];
      points.add(new double[] {eden, conservative ? Math.max(mean, last) : mean});
      groupStart = j + 1;
    }
    return new PromotionCurve(points.stream().mapToDouble(p -> p[0]).toArray(),
        points.stream().mapToDouble(p -> p[1]).toArray());
  }

  /** The predicted bytes promoted per eden collection at eden size {@code edenBytes} (bytes, positive). */
  public double promotedBytes(double edenBytes) {
    int last = eden.length - 1;
    if (edenBytes <= eden[0]) {
      return promoted[0];
    }
    if (edenBytes >= eden[last]) {
      return promoted[last] * edenBytes / eden[last];
    }
    int hi = Arrays.binarySearch(eden, edenBytes);
    if (hi >= 0) {
      return promoted[hi];
    }
    hi = -hi - 1;
    double share = (edenBytes - eden[hi - 1]) / (eden[hi] - eden[hi - 1]);
    return promoted[hi - 1] + share * (promoted[hi] - promoted[hi - 1]);
  }

  /** The smallest sampled eden size, bytes. */
  public double minEdenBytes() {
    return eden[0];
  }

  /** The largest sampled eden size, bytes. */
  public double maxEdenBytes() {
    return eden[eden.length - 1];
  }
}
