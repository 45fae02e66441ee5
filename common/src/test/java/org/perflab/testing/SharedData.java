package org.perflab.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.perflab.eventlog.fixture.LogFixtures;

/**
 * The reference data under {@code PERFLAB_SHARED} (default {@code ../shared} next to the repository): Apache Spark's
 * own test event logs and the History Server responses expected for them. They are read in place, never copied into
 * the repository, and absent on a user's clone: tests that need them skip with a message saying so.
 */
public final class SharedData {
  private SharedData() {}

  /** The shared directory as configured, whether or not it exists; see {@link LogFixtures#sharedDir()}. */
  public static Path root() {
    return LogFixtures.sharedDir();
  }

  /** {@code <shared>/data/spark-events}; skips the calling test when it is absent. */
  public static Path sparkEvents() {
    return require(root().resolve("data/spark-events"));
  }

  /** {@code <shared>/data/history-expectations}; skips the calling test when it is absent. */
  public static Path historyExpectations() {
    return require(root().resolve("data/history-expectations"));
  }

  private static Path require(Path directory) {
    assumeTrue(
        Files.isDirectory(directory),
        "Skipped: reference data not found at " + directory + " (set PERFLAB_SHARED to the shared directory)");
    return directory;
  }
}
