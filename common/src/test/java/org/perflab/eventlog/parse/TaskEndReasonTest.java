package org.perflab.eventlog.parse;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.List;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;
import org.perflab.eventlog.fixture.LogFixtures;
import org.perflab.eventlog.redact.Redactor;

/**
 * The task readers keep of an end reason only the fields {@link TaskEnd} reads: what a task end becomes (its kind,
 * reason and redacted message) must be what the whole reason gives, on every real failed task and on reasons of every
 * kind, with and without their optional fields.
 */
class TaskEndReasonTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Redactor REDACTOR = Redactor.defaults();
  private static final IntPredicate NO_SQL_STAGES = stageId -> false;

  @Test
  void everyRealFailedTaskEndsAsItsWholeReasonSays() throws IOException {
    List<String> lines = LogFixtures.linesOfSamplesAndReferenceLogs(
        line -> line.startsWith(TaskEventReader.TASK_END_PREFIX) && !line.contains("\"Reason\":\"Success\""));
    assertThat(lines).as("failed task ends in the samples and reference logs").hasSizeGreaterThan(5);
    for (String line : lines) {
      assertSameEnd(line);
    }
  }

  @Test
  void reasonsOfEveryKindEndAsTheirWholeReasonSays() throws IOException {
    List<String> reasons = List.of(
        "{\"Reason\":\"ExceptionFailure\",\"Class Name\":\"java.lang.RuntimeException\",\"Description\":"
            + "\"token=abc failed\",\"Stack Trace\":[{\"Declaring Class\":\"X\",\"Method Name\":\"m\","
            + "\"File Name\":\"X.java\",\"Line Number\":1}],\"Full Stack Trace\":\"...\","
            + "\"Accumulator Updates\":[{\"ID\":1,\"Update\":\"5\",\"Internal\":false}]}",
        "{\"Reason\":\"FetchFailed\",\"Block Manager Address\":{\"Executor ID\":\"1\",\"Host\":\"h\",\"Port\":1},"
            + "\"Shuffle ID\":3,\"Map ID\":0,\"Reduce ID\":1,\"Message\":\"lost\"}",
        "{\"Reason\":\"FetchFailed\",\"Shuffle ID\":3}",
        "{\"Reason\":\"TaskKilled\",\"Kill Reason\":\"another attempt succeeded\",\"Accumulator Updates\":[]}",
        "{\"Reason\":\"TaskKilled\"}",
        "{\"Reason\":\"ExecutorLostFailure\",\"Executor ID\":\"7\",\"Exit Caused By App\":true}",
        "{\"Reason\":\"ExecutorLostFailure\",\"Executor ID\":\"7\",\"Loss Reason\":\"Container killed\"}",
        "{\"Reason\":\"Resubmitted\"}",
        "{\"Reason\":\"TaskCommitDenied\",\"Job ID\":1,\"Partition ID\":2,\"Attempt Number\":0}",
        // Shapes Spark does not write: a repeated field, fields that are not text, no reason, not an object.
        "{\"Reason\":\"TaskKilled\",\"Reason\":\"ExceptionFailure\",\"Class Name\":\"E\",\"Description\":null}",
        "{\"Reason\":{\"nested\":1},\"Message\":[1]}",
        "{\"Class Name\":\"E\"}",
        "\"ExceptionFailure\"",
        "[1,2]");
    for (String reason : reasons) {
      String line = "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":1,\"Stage Attempt ID\":0,\"Task Type\":"
          + "\"ResultTask\",\"Task End Reason\":" + reason + ",\"Task Info\":{\"Task ID\":5,\"Index\":0,\"Attempt\":0,"
          + "\"Launch Time\":1,\"Executor ID\":\"1\",\"Host\":\"h\",\"Locality\":\"ANY\",\"Speculative\":false,"
          + "\"Getting Result Time\":0,\"Finish Time\":2,\"Failed\":true,\"Killed\":false,\"Accumulables\":[]}}";
      assertSameEnd(line);
    }
    JsonNode kept = TaskEventReader.read("{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":1,\"Stage Attempt ID\":0,"
        + "\"Task End Reason\":" + reasons.get(0) + ",\"Task Info\":{\"Task ID\":5,\"Index\":0,\"Executor ID\":\"1\"}}",
        NO_SQL_STAGES).endReason;
    assertThat(kept.has("Stack Trace")).as("a stack trace is skipped").isFalse();
    assertThat(kept.path("Class Name").asText()).isEqualTo("java.lang.RuntimeException");
  }

  /** Both readers' task end (the scanner's, when it takes the line, and the streaming reader's) as the whole reason's. */
  private static void assertSameEnd(String line) throws IOException {
    JsonNode whole = MAPPER.readTree(line).get("Task End Reason");
    TaskEnd expected = TaskEnd.of(whole == null || whole.isNull() ? null : whole, REDACTOR);
    TaskEvent read = TaskEventReader.read(line, NO_SQL_STAGES);
    assertThat(TaskEnd.of(read.endReason, REDACTOR)).as(line).isEqualTo(expected);
    TaskEvent scanned = new TaskLineScanner(NO_SQL_STAGES).scan(line);
    if (scanned != null) {
      assertThat(TaskEnd.of(scanned.endReason, REDACTOR)).as(line).isEqualTo(expected);
    }
  }
}
