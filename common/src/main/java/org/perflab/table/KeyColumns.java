package org.perflab.table;

import static org.perflab.table.Column.string;

import java.util.List;

/** The columns every table starts with, in this order. */
public final class KeyColumns {
  public static final String LOG_ID = "log_id";
  public static final String APP_ID = "app_id";
  public static final String APP_ATTEMPT_ID = "app_attempt_id";

  public static final List<Column> ALL =
      List.of(
          string(LOG_ID, "Stable id of the source log: the first 16 hex digits of the SHA-256 of its path."),
          string(APP_ID, "Application id."),
          string(APP_ATTEMPT_ID, "Application attempt id; an empty string when the log has none."));

  private KeyColumns() {}
}
