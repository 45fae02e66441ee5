package org.perflab.eventlog.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.perflab.eventlog.fixture.LogFixtures;

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
    TASK_LINES.addAll(LogFixtures.linesOfSamplesAndReferenceLogs(TaskEventReader::isTaskEventLine));
  }

  @Test
  void scansEveryRealTaskEventExactlyAsJacksonReadsIt() throws IOException {
    int scanned = 0;
    for (String line : TASK_LINES) {
      TaskEvent fast = new TaskLineScanner(ALL_STAGES).scan(line);
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
      TaskEvent jackson = readWithJackson(text);
      rejectedByJackson += jackson == null ? 1 : 0;
      TaskEvent fast = new TaskLineScanner(ALL_STAGES).scan(text);
      if (jackson == null) {
        assertThat(fast).as("scanner accepted a line Jackson rejects: %s", text).isNull();
      } else if (fast != null) {
        assertSame(fast, jackson, text);
      }
    }
    assertThat(rejectedByJackson).isGreaterThan(300);
  }

  /**
   * A scanner learns the order of Spark's keys and checks the expected key in place; lines in another order, or with
   * keys one byte shorter or longer than Spark's, must still read exactly as Jackson reads them.
   */
  @Test
  void aScannerThatLearntSparksKeyOrderReadsOtherOrdersAndLookalikeKeysAsJacksonDoes() throws IOException {
    List<java.util.function.UnaryOperator<String>> changes = List.of(
        line -> line.replaceFirst("\"Task ID\":(\\d+),\"Index\":(\\d+)", "\"Index\":$2,\"Task ID\":$1"),
        line -> line.replace("\"Index\":", "\"Indexx\":"),
        line -> line.replace("\"Launch Time\":", "\"Launch Tim\":"),
        line -> line.replace("\"Executor Deserialize Time\":", "\"Executor Deserialize Timf\":"),
        line -> line.replace("\"Update\":", "\"Updates\":"),
        line -> line.replaceFirst("\\{\"Event\":(\"[^\"]*\"),(\"Stage ID\":\\d+)", "{$2,\"Event\":$1"),
        // Executor metrics in another order, and their keys one byte longer, shorter or different.
        line -> line.replaceFirst("\"JVMHeapMemory\":(\\d+),\"JVMOffHeapMemory\":(\\d+)",
            "\"JVMOffHeapMemory\":$2,\"JVMHeapMemory\":$1"),
        line -> line.replace("\"JVMHeapMemory\":", "\"JVMHeapMemoryy\":"),
        line -> line.replace("\"JVMOffHeapMemory\":", "\"JVMOffHeapMemor\":"),
        line -> line.replace("\"ProcessTreeJVMRSSMemory\":", "\"ProcessTreeJVMRSSMemorz\":"),
        // Keys Spark writes that no table needs, and sections, with look-alikes and in another place.
        line -> line.replace("\"Internal\":", "\"Internals\":"),
        line -> line.replace("\"Input Metrics\":", "\"Input Metricz\":"),
        line -> line.replace("\"Updated Blocks\":", "\"Updated Block\":"),
        line -> line.replaceFirst("\"Shuffle Write Metrics\":\\{", "\"Shuffle Write Metrics\":{\"Push Based Shuffle\":{},"),
        line -> line.replaceFirst("\"Shuffle Read Metrics\":\\{", "\"Shuffle Read Metrics\":{\"Input Metrics\":{\"Bytes Read\":7},"));
    TaskLineScanner scanner = new TaskLineScanner(ALL_STAGES);
    int[] readFast = new int[changes.size()];
    int[] changed = new int[changes.size()];
    for (int l = 0; l < TASK_LINES.size(); l += 4) { // every fourth line: Jackson reads six changes of each
      String line = TASK_LINES.get(l);
      TaskEvent real = scanner.scan(line); // after the changed lines of the one before
      if (real != null) {
        assertSame(real, TaskEventReader.read(line, ALL_STAGES), line);
      }
      for (int i = 0; i < changes.size(); i++) {
        String text = changes.get(i).apply(line);
        if (text.equals(line)) {
          continue;
        }
        changed[i]++;
        TaskEvent jackson = readWithJackson(text);
        TaskEvent fast = scanner.scan(text);
        if (jackson == null) {
          assertThat(fast).as("scanner accepted a line Jackson rejects: %s", text).isNull();
        } else if (fast != null) {
          assertSame(fast, jackson, text);
          readFast[i]++;
        }
      }
    }
    assertThat(Arrays.stream(changed).min().orElseThrow()).as("lines each change applies to: %s",
        Arrays.toString(changed)).isGreaterThan(20);
    // Lines in another order, and those with a metric key Spark does not write, still take the fast path.
    assertThat(readFast[0]).isGreaterThan(changed[0] * 8 / 10);
    assertThat(readFast[3]).isGreaterThan(changed[3] * 8 / 10);
    assertThat(readFast[5]).isGreaterThan(changed[5] * 8 / 10);
    for (int i = 6; i < changes.size(); i++) {
      assertThat(readFast[i]).as("change %d read fast in %d of %d lines", i, readFast[i], changed[i])
          .isGreaterThan(changed[i] * 8 / 10);
    }
  }

  @Test
  void scansTheBytesOfEveryRealTaskEventAsItsTextWithOrWithoutSqlStages() throws IOException {
    for (IntPredicate sqlStages : List.<IntPredicate>of(ALL_STAGES, stageId -> false, stageId -> stageId % 2 == 0)) {
      TaskLineScanner bytes = new TaskLineScanner(sqlStages);
      int scanned = 0;
      for (String line : TASK_LINES) {
        // The line sits inside a larger buffer, as in the line reader's: nothing past its end may be read.
        byte[] utf8 = line.getBytes(StandardCharsets.UTF_8);
        byte[] buffer = new byte[utf8.length + 8];
        Arrays.fill(buffer, (byte) '}');
        System.arraycopy(utf8, 0, buffer, 3, utf8.length);
        TaskEvent fast = bytes.scan(buffer, 3, 3 + utf8.length);
        if (fast != null) {
          scanned++;
          assertSame(fast, TaskEventReader.read(line, sqlStages), line);
        }
      }
      assertThat(scanned).isGreaterThan(TASK_LINES.size() * 8 / 10);
    }
  }

  @Test
  void neverAcceptsBytesJacksonRejectsAndNeverDisagrees() {
    SplittableRandom random = new SplittableRandom(20261128L);
    // Malformed UTF-8 (a lone lead byte, a stray continuation byte) and characters beyond ASCII, among JSON's own.
    byte[][] junk = {{'{'}, {'}'}, {'['}, {']'}, {'"'}, {':'}, {','}, {'-'}, {'0'}, {'7'}, {'.'}, {'e'}, {' '},
        {'n'}, {'u'}, {'\\'}, {1}, {(byte) 0xC3}, {(byte) 0x80}, {(byte) 0xC3, (byte) 0xA9},
        {(byte) 0xE2, (byte) 0x82, (byte) 0xAC}, {(byte) 0xF0, (byte) 0x9F, (byte) 0x98, (byte) 0x80}};
    TaskLineScanner scanner = new TaskLineScanner(ALL_STAGES);
    int rejectedByJackson = 0;
    int accepted = 0;
    for (int i = 0; i < 6_000; i++) {
      java.io.ByteArrayOutputStream mutated = new java.io.ByteArrayOutputStream();
      byte[] line = TASK_LINES.get(random.nextInt(TASK_LINES.size())).getBytes(StandardCharsets.UTF_8);
      int edits = 1 + random.nextInt(3);
      int[] at = random.ints(edits, 0, line.length).sorted().toArray();
      int from = 0;
      for (int edit : at) {
        if (edit < from) {
          continue;
        }
        mutated.write(line, from, edit - from);
        byte[] insert = junk[random.nextInt(junk.length)];
        switch (random.nextInt(3)) {
          case 0 -> from = edit + 1;
          case 1 -> {
            mutated.write(insert, 0, insert.length);
            from = edit;
          }
          default -> {
            mutated.write(insert, 0, insert.length);
            from = edit + 1;
          }
        }
      }
      mutated.write(line, from, line.length - from);
      byte[] bytes = mutated.toByteArray();
      // What the line reader hands to the parser's string path: the same bytes, decoded with U+FFFD for malformed ones.
      String text = new String(bytes, StandardCharsets.UTF_8);
      TaskEvent jackson = readWithJackson(text);
      rejectedByJackson += jackson == null ? 1 : 0;
      TaskEvent fast = scanner.scan(bytes, 0, bytes.length);
      if (jackson == null) {
        assertThat(fast).as("scanner accepted bytes Jackson rejects: %s", text).isNull();
      } else if (fast != null) {
        accepted++;
        assertSame(fast, jackson, text);
      }
    }
    assertThat(rejectedByJackson).isGreaterThan(300);
    assertThat(accepted).isGreaterThan(300);
  }

  /** What the Jackson-based reader reads from the line, or null when it rejects it. */
  private static TaskEvent readWithJackson(String text) {
    try {
      return TaskEventReader.read(text, ALL_STAGES);
    } catch (IOException | RuntimeException e) {
      return null;
    }
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
