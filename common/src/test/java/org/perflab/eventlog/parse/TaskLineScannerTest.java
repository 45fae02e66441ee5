package org.perflab.eventlog.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.IntPredicate;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.perflab.eventlog.fixture.LogFixtures;
import org.perflab.eventlog.source.EventLogLines;
import org.perflab.eventlog.source.EventLogSource;
import org.perflab.eventlog.source.LogDiscovery;

/**
 * The fast task-event scanner must agree with the Jackson-based reader: on every task event of the bundled and
 * reference logs, and on many random corruptions of them, it either gives up or returns exactly what Jackson reads,
 * and it never accepts a line that Jackson rejects.
 */
class TaskLineScannerTest {
  private static final List<String> TASK_LINES = new ArrayList<>();
  /** Every stage counts as a SQL stage, so that both read every task end's accumulator updates. */
  private static final IntPredicate ALL_STAGES = stageId -> true;

  @BeforeAll
  static void collectTaskEvents() throws IOException {
    Configuration conf = new Configuration();
    List<String> inputs = new ArrayList<>(List.of(Paths.get("..", "samples", "spark-events").toString()));
    java.nio.file.Path reference = LogFixtures.sharedDir().resolve("data/spark-events");
    if (java.nio.file.Files.isDirectory(reference)) {
      inputs.add(reference.toString());
    }
    for (EventLogSource source : LogDiscovery.discover(inputs, conf).logs()) {
      try (EventLogLines lines = EventLogLines.open(source, conf)) {
        for (String line = lines.nextLine(); line != null; line = lines.nextLine()) {
          if (TaskEventReader.isTaskEventLine(line)) {
            TASK_LINES.add(line);
          }
        }
      }
    }
  }

  @Test
  void scansEveryRealTaskEventExactlyAsJacksonReadsIt() throws IOException {
    int scanned = 0;
    for (String line : TASK_LINES) {
      TaskEvent fast = TaskLineScanner.scan(line, new String[0], ALL_STAGES);
      if (fast != null) {
        scanned++;
        assertSame(fast, TaskEventReader.read(line, ALL_STAGES), line);
      }
    }
    assertThat(TASK_LINES).hasSizeGreaterThan(100);
    // Every Spark 2.x+ success event takes the fast path; failures and 1.x string accumulables may not.
    assertThat(scanned).isGreaterThan(TASK_LINES.size() * 8 / 10);
  }

  @Test
  void neverAcceptsWhatJacksonRejectsAndNeverDisagrees() {
    SplittableRandom random = new SplittableRandom(20261122L);
    String junk = "{}[]\":,-0123456789.eE ntfu\\\u0001x";
    int rejectedByJackson = 0;
    for (int i = 0; i < 6_000; i++) {
      String line = TASK_LINES.get(random.nextInt(TASK_LINES.size()));
      StringBuilder mutated = new StringBuilder(line);
      int edits = 1 + random.nextInt(3);
      for (int e = 0; e < edits && mutated.length() > 1; e++) {
        int at = random.nextInt(mutated.length());
        switch (random.nextInt(3)) {
          case 0 -> mutated.deleteCharAt(at);
          case 1 -> mutated.insert(at, junk.charAt(random.nextInt(junk.length())));
          default -> mutated.setCharAt(at, junk.charAt(random.nextInt(junk.length())));
        }
      }
      String text = mutated.toString();
      TaskEvent jackson;
      try {
        jackson = TaskEventReader.read(text, ALL_STAGES);
      } catch (IOException | RuntimeException e) {
        jackson = null;
        rejectedByJackson++;
      }
      TaskEvent fast = TaskLineScanner.scan(text, new String[0], ALL_STAGES);
      if (jackson == null) {
        assertThat(fast).as("scanner accepted a line Jackson rejects: %s", text).isNull();
      } else if (fast != null) {
        assertSame(fast, jackson, text);
      }
    }
    assertThat(rejectedByJackson).isGreaterThan(300);
  }

  private static void assertSame(TaskEvent fast, TaskEvent jackson, String line) {
    assertThat(fast).as(line).usingRecursiveComparison()
        .ignoringFields("executorMetricNames", "executorMetricValues", "peakMemoryAccumulable", "accumulableIds",
            "accumulableUpdates")
        .isEqualTo(jackson);
    assertThat(Arrays.copyOf(fast.executorMetricNames, fast.executorMetricCount))
        .isEqualTo(Arrays.copyOf(jackson.executorMetricNames, jackson.executorMetricCount));
    assertThat(Arrays.copyOf(fast.executorMetricValues, fast.executorMetricCount))
        .isEqualTo(Arrays.copyOf(jackson.executorMetricValues, jackson.executorMetricCount));
    assertThat(Arrays.copyOf(fast.accumulableIds, fast.accumulableCount))
        .isEqualTo(Arrays.copyOf(jackson.accumulableIds, jackson.accumulableCount));
    assertThat(Arrays.copyOf(fast.accumulableUpdates, fast.accumulableCount))
        .isEqualTo(Arrays.copyOf(jackson.accumulableUpdates, jackson.accumulableCount));
  }
}
