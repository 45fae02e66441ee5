package org.perflab.spark.findings;

import static org.apache.spark.sql.functions.col;

import java.util.List;
import org.apache.spark.sql.Column;
import org.perflab.table.KeyColumns;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/** The application-attempt key: {@code log_id, app_id, app_attempt_id}. */
final class FindingKeys {
  private static final String[] NAMES = {KeyColumns.LOG_ID, KeyColumns.APP_ID, KeyColumns.APP_ATTEMPT_ID};

  private FindingKeys() {}

  /** The key columns followed by {@code more}. */
  static Column[] with(String... more) {
    Column[] all = new Column[NAMES.length + more.length];
    for (int i = 0; i < all.length; i++) {
      all[i] = col(i < NAMES.length ? NAMES[i] : more[i - NAMES.length]);
    }
    return all;
  }

  /** The key's names followed by {@code more}, for {@code Dataset.join(other, usingColumns, type)}. */
  static Seq<String> using(String... more) {
    String[] all = new String[NAMES.length + more.length];
    System.arraycopy(NAMES, 0, all, 0, NAMES.length);
    System.arraycopy(more, 0, all, NAMES.length, more.length);
    return CollectionConverters.asScala(List.of(all)).toSeq();
  }

  /** {@code log_id} followed by {@code more}, for joins within one log. */
  static Seq<String> usingLog(String... more) {
    String[] all = new String[1 + more.length];
    all[0] = KeyColumns.LOG_ID;
    System.arraycopy(more, 0, all, 1, more.length);
    return CollectionConverters.asScala(List.of(all)).toSeq();
  }
}
