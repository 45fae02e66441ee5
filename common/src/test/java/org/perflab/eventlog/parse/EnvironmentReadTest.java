package org.perflab.eventlog.parse;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.perflab.eventlog.fixture.LogFixtures;
import org.perflab.eventlog.redact.Redactor;

/**
 * An environment update read without a tree ({@link SlimJson#readEnvironment}) must give the application exactly the
 * properties, in the same order, and the same event time as the tree ({@link SlimJson#read}) does, and reject exactly
 * the lines the tree rejects: on every real environment update, on look-alike shapes Spark does not write, and on
 * random corruptions.
 */
class EnvironmentReadTest {
  private static final List<String> LINES = new ArrayList<>();
  private static final Redactor REDACTOR = Redactor.defaults();

  @BeforeAll
  static void collectEnvironmentUpdates() throws IOException {
    LINES.addAll(LogFixtures.linesOfSamplesAndReferenceLogs(line -> line.contains("\"SparkListenerEnvironmentUpdate\"")));
  }

  @Test
  void everyRealEnvironmentUpdateGivesTheTreesProperties() {
    assertThat(LINES).hasSizeGreaterThan(10);
    for (String line : LINES) {
      Outcome tree = viaTree(line);
      assertThat(tree.properties()).as("a real update has properties").isNotEmpty();
      assertThat(viaTexts(line)).as(line).isEqualTo(tree);
    }
  }

  @Test
  void shapesSparkDoesNotWriteGiveTheTreesPropertiesToo() {
    String event = "{\"Event\":\"SparkListenerEnvironmentUpdate\",";
    List<String> lines = List.of(
        // A repeated key in a section: its first place, its last value.
        event + "\"Spark Properties\":{\"a\":\"1\",\"b\":\"2\",\"a\":\"3\"}}",
        // A repeated section: the last one alone; a section that is not an object, before and after one.
        event + "\"Spark Properties\":{\"a\":\"1\"},\"Spark Properties\":{\"b\":\"2\"}}",
        event + "\"Spark Properties\":{\"a\":\"1\"},\"Spark Properties\":7}",
        event + "\"Spark Properties\":[1],\"Spark Properties\":{\"c\":\"3\"}}",
        // Values that are not strings, as JsonNode.asText() gives them.
        event + "\"System Properties\":{\"n\":12,\"f\":1.5,\"t\":true,\"z\":null,\"o\":{\"x\":1},\"l\":[1,2]}}",
        // A key named Accumulables is left out, as the tree leaves it out; a secret is redacted.
        event + "\"Hadoop Properties\":{\"Accumulables\":\"x\",\"fs.s3a.secret.key\":\"hunter2\",\"k\":\"v\"}}",
        // A time, the class path, and a field nothing reads.
        event + "\"Timestamp\":42,\"Classpath Entries\":{\"/a.jar\":\"System Classpath\"},\"Other\":{\"x\":[1]},"
            + "\"JVM Information\":{}}",
        // Escapes and characters beyond ASCII.
        event + "\"Spark Properties\":{\"k\\u00e9\\n\":\"v\\\"\\u20ac\",\"\u00e9\":\"\u20ac\"}}");
    for (String line : lines) {
      assertThat(viaTexts(line)).as(line).isEqualTo(viaTree(line));
    }
    assertThat(viaTree(lines.get(0)).properties()).isEqualTo(List.of("SPARK a=3", "SPARK b=2"));
    assertThat(viaTree(lines.get(5)).properties())
        .isEqualTo(List.of("HADOOP fs.s3a.secret.key=" + Redactor.REDACTED, "HADOOP k=v"));
  }

  @Test
  void rejectsWhatTheTreeRejectsAndReadsTheRestAlike() {
    SplittableRandom random = new SplittableRandom(20261205L);
    String[] junk = {"{", "}", "[", "]", "\"", ":", ",", "-", "0", ".", "e", " ", "n", "\\", "\u0001", "\u00e9"};
    int rejected = 0;
    int accepted = 0;
    for (int i = 0; i < 3_000; i++) {
      String line = LINES.get(random.nextInt(LINES.size()));
      StringBuilder mutated = new StringBuilder(line);
      for (int edits = 1 + random.nextInt(3); edits > 0; edits--) {
        int at = random.nextInt(mutated.length());
        String insert = junk[random.nextInt(junk.length)];
        switch (random.nextInt(3)) {
          case 0 -> mutated.deleteCharAt(at);
          case 1 -> mutated.insert(at, insert);
          default -> mutated.replace(at, at + 1, insert);
        }
      }
      String text = mutated.toString();
      Outcome tree = viaTree(text);
      assertThat(viaTexts(text)).as(text).isEqualTo(tree);
      if (tree.rejected()) {
        rejected++;
      } else {
        accepted++;
      }
    }
    assertThat(rejected).isGreaterThan(300);
    assertThat(accepted).isGreaterThan(300);
  }

  /** What the application keeps from a line: its properties as "CATEGORY key=value" in order, and its last time. */
  private record Outcome(boolean rejected, List<String> properties, Long time) {}

  private static Outcome viaTree(String line) {
    JsonNode event;
    try {
      event = SlimJson.read(line);
    } catch (IOException e) {
      return new Outcome(true, List.of(), null);
    }
    ApplicationAccumulator app = new ApplicationAccumulator("app", null);
    if (event != null && event.isObject()) {
      app.observeTime(EventTypes.time(event));
      app.environmentUpdate(event, REDACTOR);
    }
    return outcome(app);
  }

  private static Outcome viaTexts(String line) {
    SlimJson.Environment environment;
    try {
      environment = SlimJson.readEnvironment(line, ApplicationAccumulator.SECTION_FIELDS);
    } catch (IOException e) {
      return new Outcome(true, List.of(), null);
    }
    ApplicationAccumulator app = new ApplicationAccumulator("app", null);
    if (environment != null) {
      app.observeTime(EventTypes.time(environment.event()));
      app.environmentUpdate(environment.sections(), REDACTOR);
    }
    return outcome(app);
  }

  private static Outcome outcome(ApplicationAccumulator app) {
    List<String> properties = new ArrayList<>();
    app.properties.forEach((category, values) ->
        values.forEach((key, value) -> properties.add(category + " " + key + "=" + value)));
    return new Outcome(false, properties, app.lastEventTime);
  }
}
