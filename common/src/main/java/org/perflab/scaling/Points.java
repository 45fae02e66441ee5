package org.perflab.scaling;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Optional;

/** The checks every fit makes on its points before solving, as a note rather than an exception. */
final class Points {
  private Points() {}

  /**
   * Why the points (n_i, y_i) cannot be fitted, in the form "Cannot fit MODEL: reason (value)"; empty when they can.
   *
   * @param minCoreCounts the distinct core counts needed
   */
  static Optional<String> invalid(String model, double[] n, double[] y, int minCoreCounts) {
    if (n.length != y.length) {
      return Optional.of(String.format("Cannot fit %s: %d core counts and %d runtimes (one runtime per core count)",
          model, n.length, y.length));
    }
    Optional<String> values = invalidValues(model, n, y);
    if (values.isPresent()) {
      return values;
    }
    int distinct = Goodness.distinct(n);
    return distinct < minCoreCounts ? Optional.of(String.format("Cannot fit %s: %d distinct core count%s (at least %d)",
        model, distinct, distinct == 1 ? "" : "s", minCoreCounts)) : Optional.empty();
  }

  /** {@code value} to 4 significant digits, without trailing zeros: 0.001, 3, 1.067, for notes. */
  static String brief(double value) {
    return new BigDecimal(value).round(new MathContext(4)).stripTrailingZeros().toPlainString();
  }

  /** Why a core count or a runtime is unusable: a core count below 1 or not finite, a runtime not finite. */
  static Optional<String> invalidValues(String model, double[] n, double[] y) {
    for (double cores : n) {
      if (!(cores >= 1) || Double.isInfinite(cores)) {
        return Optional.of(String.format("Cannot fit %s: a core count is below 1 or not finite (%s)", model, cores));
      }
    }
    for (double runtime : y) {
      if (!Double.isFinite(runtime)) {
        return Optional.of(String.format("Cannot fit %s: a runtime is not finite (%s)", model, runtime));
      }
    }
    return Optional.empty();
  }
}
