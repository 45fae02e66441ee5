package org.perflab.eventlog.parse;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Set;
import org.perflab.eventlog.redact.Redactor;

/**
 * A task's {@code "Task End Reason"}: its kind for counting, Spark's reason class, and a redacted message.
 *
 * @param kind how the History Server counts it
 * @param reasonClass Spark's reason: Success, ExceptionFailure, FetchFailed, TaskKilled, ...
 * @param message what went wrong, redacted; null on success
 */
record TaskEnd(Kind kind, String reasonClass, String message) {

  /** The fields of an end reason that {@link #of} reads: the task reader keeps these and skips the others. */
  static final Set<String> FIELDS = Set.of(
      "Reason", "Class Name", "Description", "Message", "Shuffle ID", "Kill Reason", "Loss Reason", "Executor ID");

  /** The History Server's four ways of counting a task end. */
  enum Kind {
    SUCCESS,
    FAILED,
    /** TaskKilled and TaskCommitDenied. */
    KILLED,
    /** Re-run after its executor was lost; counted as failed but not active. */
    RESUBMITTED
  }

  String status() {
    return switch (kind) {
      case SUCCESS -> "SUCCESS";
      case KILLED -> "KILLED";
      default -> "FAILED";
    };
  }

  static TaskEnd of(JsonNode reason, Redactor redactor) {
    String reasonClass = reason == null ? "Success" : Json.text(reason, "Reason");
    if (reasonClass == null) {
      reasonClass = "UnknownReason";
    }
    Kind kind =
        switch (reasonClass) {
          case "Success" -> Kind.SUCCESS;
          case "TaskKilled", "TaskCommitDenied" -> Kind.KILLED;
          case "Resubmitted" -> Kind.RESUBMITTED;
          default -> Kind.FAILED;
        };
    String message = kind == Kind.SUCCESS ? null : message(reasonClass, reason);
    return new TaskEnd(kind, reasonClass, message == null ? null : redactor.redactText(message));
  }

  private static String message(String reasonClass, JsonNode reason) {
    return switch (reasonClass) {
      case "ExceptionFailure" -> Json.text(reason, "Class Name") + ": " + Json.text(reason, "Description");
      case "FetchFailed" -> "FetchFailed: " + firstNonNull(Json.text(reason, "Message"), "shuffle "
          + Json.text(reason, "Shuffle ID"));
      case "TaskKilled" -> "TaskKilled: " + firstNonNull(Json.text(reason, "Kill Reason"), "unknown reason");
      case "ExecutorLostFailure" -> "ExecutorLostFailure: " + firstNonNull(Json.text(reason, "Loss Reason"),
          "executor " + Json.text(reason, "Executor ID"));
      default -> reasonClass;
    };
  }

  private static String firstNonNull(String value, String fallback) {
    return value != null ? value : fallback;
  }
}
