package org.perflab.spark.storage;

import static org.apache.spark.sql.functions.col;

import java.util.List;
import org.apache.spark.sql.Column;
import org.perflab.table.KeyColumns;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The application-attempt key every table's rows start with ({@link KeyColumns}: {@code log_id, app_id,
 * app_attempt_id}), as Spark columns for a {@code groupBy} or {@code select}, and as names for a join.
 */
public final class AppKeyColumns {
  /** The key's column names, in table order. */
  public static final List<String> NAMES = List.of(KeyColumns.LOG_ID, KeyColumns.APP_ID, KeyColumns.APP_ATTEMPT_ID);

  private AppKeyColumns() {}

  /** The key's names followed by {@code more}: the key of an application's stages, hosts, executors, .... */
  public static List<String> names(String... more) {
    return concat(NAMES, more);
  }

  /** The key columns followed by {@code more}. */
  public static Column[] with(String... more) {
    return names(more).stream().map(org.apache.spark.sql.functions::col).toArray(Column[]::new);
  }

  /** The key's names followed by {@code more}, for {@code Dataset.join(other, usingColumns, type)}. */
  public static Seq<String> using(String... more) {
    return joinNames(names(more));
  }

  /** {@code log_id} followed by {@code more}, for joins within one log. */
  public static Seq<String> usingLog(String... more) {
    return joinNames(concat(List.of(KeyColumns.LOG_ID), more));
  }

  /** {@code names}, key or not, as the sequence {@code Dataset.join(other, usingColumns, type)} takes. */
  public static Seq<String> joinNames(List<String> names) {
    return CollectionConverters.asScala(names).toSeq();
  }

  /** {@code names} as columns. */
  public static Column[] columns(List<String> names) {
    return names.stream().map(name -> col(name)).toArray(Column[]::new);
  }

  private static List<String> concat(List<String> first, String... more) {
    String[] all = first.toArray(new String[first.size() + more.length]);
    System.arraycopy(more, 0, all, first.size(), more.length);
    return List.of(all);
  }
}
