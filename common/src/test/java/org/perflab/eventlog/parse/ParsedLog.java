package org.perflab.eventlog.parse;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.table.KeyColumns;
import org.perflab.table.Table;
import org.perflab.table.TableRow;

/** An event log parsed in memory, its rows grouped by table; for tests. */
public final class ParsedLog {
  public static final Clock FIXED_CLOCK = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);

  private final Map<Table, List<TableRow>> rows = new EnumMap<>(Table.class);

  private ParsedLog() {
    for (Table table : Table.values()) {
      rows.put(table, new ArrayList<>());
    }
  }

  /** Parses a plain (uncompressed) single-file log. */
  public static ParsedLog parse(Path file, boolean inProgress) {
    try {
      byte[] bytes = Files.readAllBytes(file);
      String text = new String(bytes, StandardCharsets.UTF_8);
      boolean terminated = bytes.length == 0 || bytes[bytes.length - 1] == '\n';
      List<String> lines = text.isEmpty() ? List.of() : List.of(text.split("\n", -1));
      if (!lines.isEmpty() && terminated) {
        lines = lines.subList(0, lines.size() - 1);
      }
      LogIdentity identity = new LogIdentity("0123456789abcdef", file.toUri().toString(), "SINGLE_FILE", "NONE",
          bytes.length, Files.getLastModifiedTime(file).toMillis(), inProgress,
          LogIdentity.appIdFromPath(file.toString()), null);
      return parse(identity, lines, terminated);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static ParsedLog parse(LogIdentity identity, List<String> lines, boolean lastLineTerminated) {
    return collect(
        new EventLogParser(identity, lines.iterator(), () -> lastLineTerminated, Redactor.defaults(), FIXED_CLOCK));
  }

  /** Groups rows, such as those of {@code EventLogReader.rows}, by table. */
  public static ParsedLog collect(Iterator<TableRow> rows) {
    ParsedLog parsed = new ParsedLog();
    rows.forEachRemaining(row -> parsed.rows.get(row.table()).add(row));
    return parsed;
  }

  public List<TableRow> rows(Table table) {
    return rows.get(table);
  }

  public TableRow status() {
    return rows.get(Table.INGEST_STATUS).get(0);
  }

  public TableRow application() {
    return rows.get(Table.APPLICATIONS).get(0);
  }

  /** Every table's rows but the status, each as {@link #text(TableRow)}, sorted: comparable across log paths. */
  public Map<Table, List<String>> dataRows() {
    Map<Table, List<String>> tables = new EnumMap<>(Table.class);
    for (Table table : Table.values()) {
      if (table != Table.INGEST_STATUS) {
        tables.put(table, rows.get(table).stream().map(ParsedLog::text).sorted().toList());
      }
    }
    return tables;
  }

  /** A row's values as text, without its log id (which names the file, not its content). */
  public static String text(TableRow row) {
    Object[] values = row.values().clone();
    if (row.table().keys() == Table.Keys.LOG) {
      values[row.table().indexOf(KeyColumns.LOG_ID)] = null;
    }
    return canonical(values);
  }

  /** Arrays, lists and maps at any depth, element by element. */
  private static String canonical(Object value) {
    if (value instanceof Object[] array) {
      return canonical(Arrays.asList(array));
    }
    if (value instanceof Row row) {
      Object[] fields = new Object[row.length()];
      Arrays.setAll(fields, row::get);
      return canonical(fields);
    }
    if (value instanceof Iterable<?> list) {
      StringBuilder text = new StringBuilder("[");
      list.forEach(element -> text.append(canonical(element)).append(", "));
      return text.append(']').toString();
    }
    if (value instanceof Map<?, ?> map) {
      StringBuilder text = new StringBuilder("{");
      new TreeMap<>(map).forEach((k, v) -> text.append(k).append('=').append(canonical(v)).append(", "));
      return text.append('}').toString();
    }
    return String.valueOf(value);
  }

  /** Rows of a table as column getters, the shape {@code HistoryServerComparison} takes. */
  public List<Function<String, Object>> getters(Table table) {
    return rows.get(table).stream().map(row -> (Function<String, Object>) row::get).collect(Collectors.toList());
  }
}
