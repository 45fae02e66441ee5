package org.perflab.spark.workload;

import java.util.Locale;
import java.util.Random;

/** How Sleep draws each task's duration. */
public enum SleepDistribution {
  /** Every task sleeps the mean. */
  DETERMINISTIC,
  /** Uniform between min and max. */
  UNIFORM,
  /** Exponential with the given mean, capped at max when max is positive. */
  EXPONENTIAL;

  /** One duration in milliseconds, drawn with {@code random}. */
  long draw(Random random, SleepSpec spec) {
    return switch (this) {
      case DETERMINISTIC -> spec.meanMs();
      case UNIFORM -> spec.minMs() + (long) (random.nextDouble() * (spec.maxMs() - spec.minMs()));
      case EXPONENTIAL -> {
        long value = Math.round(-spec.meanMs() * Math.log(1.0 - random.nextDouble()));
        yield spec.maxMs() > 0 ? Math.min(value, spec.maxMs()) : value;
      }
    };
  }

  public static SleepDistribution parse(String text) {
    return valueOf(text.trim().toUpperCase(Locale.ROOT));
  }
}
