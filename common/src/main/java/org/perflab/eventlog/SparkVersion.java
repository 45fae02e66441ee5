package org.perflab.eventlog;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The Spark version an event log declares ({@code SparkListenerLogStart}), read as major and minor. */
public final class SparkVersion {
  private static final Pattern VERSION = Pattern.compile("\\s*(\\d+)\\.(\\d+).*");

  /**
   * The pseudo-property under which a run's properties may carry its Spark version (no Spark property has a space in
   * its name).
   */
  public static final String PROPERTY = "spark version";

  private SparkVersion() {}

  /**
   * {@code sparkVersion} ("3.5.1", "1.5.2-SNAPSHOT") as major × 100 + minor (305, 105); -1 when null or unreadable,
   * which callers take as "not known".
   */
  public static int minor(String sparkVersion) {
    if (sparkVersion == null) {
      return -1;
    }
    Matcher m = VERSION.matcher(sparkVersion);
    return m.matches() ? Integer.parseInt(m.group(1)) * 100 + Integer.parseInt(m.group(2)) : -1;
  }
}
