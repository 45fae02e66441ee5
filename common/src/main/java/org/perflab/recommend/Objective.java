package org.perflab.recommend;

import java.util.Locale;
import java.util.Optional;
import org.perflab.errors.BadInputException;

/**
 * What {@code recommend} optimises, within which bounds. Without a deadline: the cheapest configuration whose
 * predicted runtime is within {@link #TOLERANCE} of the fastest predicted. With a deadline: the cheapest
 * configuration whose p90 runtime (the upper end of its 80 % interval; the point prediction when it has no
 * interval) meets the deadline.
 *
 * @param deadlineSeconds the deadline, seconds; null for the default objective
 * @param executorBound the most executors a configuration may have; null for no bound
 */
public record Objective(Double deadlineSeconds, Integer executorBound) implements java.io.Serializable {
  /** The default objective's slack over the fastest predicted runtime: 10 %. */
  public static final double TOLERANCE = 0.10;

  /**
   * The objective, validated: a deadline finite and > 0, at most {@code maxExecutors} ≥ 1.
   *
   * @throws BadInputException naming the option and its valid range
   */
  public Objective {
    Optional.ofNullable(deadlineSeconds).ifPresent(d -> BadInputException.require(Double.isFinite(d) && d > 0, String.format(Locale.ROOT,
        "Cannot recommend a configuration: --deadline is %s s (a finite number of seconds > 0)", d)));
    Optional.ofNullable(executorBound).ifPresent(n -> BadInputException.require(n >= 1,
        "Cannot recommend a configuration: --max-executors is %d (an integer >= 1)", n));
  }

  /** The objective of the options: a deadline and a bound, each optional. */
  public static Objective of(Optional<Double> deadlineS, Optional<Integer> maxExecutors) {
    return new Objective(deadlineS.orElse(null), maxExecutors.orElse(null));
  }

  /** The default objective with no bounds. */
  public static Objective cheapestNearFastest() {
    return new Objective(null, null);
  }

  /** The deadline, seconds; empty for the default objective. */
  public Optional<Double> deadlineS() {
    return Optional.ofNullable(deadlineSeconds);
  }

  /** The most executors a configuration may have; empty for no bound. */
  public Optional<Integer> maxExecutors() {
    return Optional.ofNullable(executorBound);
  }

  /** The objective in words, as {@code recommendations.objective} records it. */
  public String describe() {
    return deadlineS().map(d -> String.format(Locale.ROOT, "cheapest meeting %.0f s at p90", d))
        .orElse(String.format(Locale.ROOT, "cheapest within %.0f %% of the fastest", TOLERANCE * 100));
  }

  /** Whether {@code executors} is within the bound. */
  public boolean allows(int executors) {
    return maxExecutors().map(n -> executors <= n).orElse(true);
  }
}
