package org.perflab.spark.workload;

import java.util.Locale;

/**
 * HiBench's data-scale profiles. Each workload maps a profile to its own sizes ({@link ScaleTable}); PerfLab's sizes
 * are chosen so that every profile runs on a 2-core machine (see docs/workloads.md for HiBench's own sizes).
 */
public enum Scale {
  TINY,
  SMALL,
  LARGE,
  HUGE,
  GIGANTIC,
  BIGDATA;

  /** The profile name as HiBench writes it ({@code hibench.scale.profile}), e.g. {@code tiny}. */
  public String profileName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses a profile name, case-insensitively; throws {@link IllegalArgumentException} naming the valid values. */
  public static Scale parse(String text) {
    for (Scale scale : values()) {
      if (scale.profileName().equalsIgnoreCase(text.trim())) {
        return scale;
      }
    }
    throw new IllegalArgumentException(
        "Cannot parse scale: unknown profile (" + text + "; valid: tiny, small, large, huge, gigantic, bigdata)");
  }
}
