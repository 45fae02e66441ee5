package org.perflab.findings;

import java.util.Locale;
import org.apache.spark.network.util.JavaUtils;

/** Spark size properties as bytes. */
public final class ByteSizes {
  private ByteSizes() {}

  /**
   * spark.sql.autoBroadcastJoinThreshold as bytes: {@code fallback} when unset or unreadable, -1 when disabled (any
   * negative value), else the size ("10MB", "10485760", "1g"; a bare number is bytes).
   */
  public static long broadcastThreshold(String value, long fallback) {
    if (value == null || value.isBlank()) {
      return fallback;
    }
    String v = value.trim().toLowerCase(Locale.ROOT);
    if (v.startsWith("-")) {
      return -1;
    }
    try {
      return JavaUtils.byteStringAsBytes(v);
    } catch (NumberFormatException e) {
      return fallback;
    }
  }
}
