package org.perflab.spark.storage;

import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A test-only hook: with {@code PERFLAB_TEST_PAUSE_AT=<point>} in the environment, the run prints
 * {@code PERFLAB_TEST_PAUSED <point>} on stderr when it reaches that point and then waits, so that a test can kill
 * the process there with SIGKILL. Unset, it does nothing.
 */
public final class TestPause {
  /** The environment variable naming the point. */
  public static final String VARIABLE = "PERFLAB_TEST_PAUSE_AT";
  private static final Logger LOG = LoggerFactory.getLogger(TestPause.class);

  /** Where a run can be paused. */
  public enum Point {
    /** Every log parsed, no table committed. */
    AFTER_PARSE,
    /** After the first data table's commits, before the next table's. */
    BETWEEN_COMMITS,
    /** During maintenance, after the first table's OPTIMIZE. */
    DURING_MAINTENANCE
  }

  private final Point point;

  private TestPause(Point point) {
    this.point = point;
  }

  public static TestPause fromEnvironment() {
    String value = System.getenv(VARIABLE);
    return new TestPause(value == null || value.isBlank() ? null
        : Point.valueOf(value.trim().toUpperCase(Locale.ROOT).replace('-', '_')));
  }

  /** Waits forever when the run is at the configured point. */
  public void at(Point reached) {
    if (reached != point) {
      return;
    }
    LOG.warn("Paused for a test at {}", reached);
    System.err.println("PERFLAB_TEST_PAUSED " + reached);
    System.err.flush();
    while (true) {
      try {
        Thread.sleep(60_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
