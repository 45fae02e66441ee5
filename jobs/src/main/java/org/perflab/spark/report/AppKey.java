package org.perflab.spark.report;

import java.util.Locale;
import org.apache.spark.sql.Row;

/** An application attempt, as the ingest tables key it; {@code attemptId} is empty when the log has none. */
public record AppKey(String logId, String appId, String attemptId) {
  public static AppKey of(Row row) {
    String attempt = row.getAs("app_attempt_id");
    return new AppKey(row.getAs("log_id"), row.getAs("app_id"), attempt == null ? "" : attempt);
  }

  /** The path of the application's page, relative to the site root: {@code apps/<log_id>[-<attempt>].html}. */
  public String page() {
    return "apps/" + Paths.slug(logId) + (attemptId.isEmpty() ? "" : "-" + Paths.slug(attemptId)) + ".html";
  }

  /** The application id, and its attempt when there is one. */
  public String label() {
    return attemptId.isEmpty() ? appId : appId + " (attempt " + attemptId + ")";
  }

  /** Whether {@code id} names this application: its application id or its log id. */
  public boolean matches(String id) {
    return id.equals(appId) || id.toLowerCase(Locale.ROOT).equals(logId);
  }
}
