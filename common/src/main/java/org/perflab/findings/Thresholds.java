package org.perflab.findings;

import java.io.Serializable;

/**
 * The four limits that grade a metric into a {@link Severity}, as Dr. Elephant's {@code SeverityThresholds}: for an
 * ascending metric (bigger is worse) the severity is the highest level whose limit the value reaches ({@code >=}); for
 * a descending metric (smaller is worse) the highest level whose limit the value is at or below ({@code <=}).
 *
 * @param low the LOW limit
 * @param moderate the MODERATE limit
 * @param severe the SEVERE limit
 * @param critical the CRITICAL limit
 * @param ascending true when bigger values are worse
 */
public record Thresholds(double low, double moderate, double severe, double critical, boolean ascending)
    implements Serializable {
  public Thresholds {
    double[] limits = {low, moderate, severe, critical};
    for (int i = 1; i < limits.length; i++) {
      if (ascending ? limits[i] < limits[i - 1] : limits[i] > limits[i - 1]) {
        throw new IllegalArgumentException(String.format(
            "Cannot grade: thresholds must be %s (%s, %s, %s, %s)", ascending ? "ascending" : "descending", low,
            moderate, severe, critical));
      }
    }
  }

  /** Limits where bigger values are worse. */
  public static Thresholds ascending(double low, double moderate, double severe, double critical) {
    return new Thresholds(low, moderate, severe, critical, true);
  }

  /** Limits where smaller values are worse. */
  public static Thresholds descending(double low, double moderate, double severe, double critical) {
    return new Thresholds(low, moderate, severe, critical, false);
  }

  /** The severity of {@code value}; NONE for a null or NaN value. */
  public Severity grade(Double value) {
    if (value == null || value.isNaN()) {
      return Severity.NONE;
    }
    double[] limits = {critical, severe, moderate, low};
    Severity[] levels = {Severity.CRITICAL, Severity.SEVERE, Severity.MODERATE, Severity.LOW};
    for (int i = 0; i < limits.length; i++) {
      if (ascending ? value >= limits[i] : value <= limits[i]) {
        return levels[i];
      }
    }
    return Severity.NONE;
  }

  /** The limit of {@code severity} (LOW to CRITICAL). */
  public double limit(Severity severity) {
    return switch (severity) {
      case LOW -> low;
      case MODERATE -> moderate;
      case SEVERE -> severe;
      case CRITICAL -> critical;
      case NONE -> throw new IllegalArgumentException("Cannot give a limit: NONE has none (LOW..CRITICAL)");
    };
  }
}
