package org.perflab.table;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Renders the ingest tables' section of {@code docs/tables.md} from {@link Table}, so the documentation cannot drift
 * from the schema. The section sits between two HTML comments; text outside them is written by hand.
 */
public final class TableDocs {
  public static final String BEGIN = "<!-- BEGIN GENERATED: ingest tables (TableDocsTest) -->";
  public static final String END = "<!-- END GENERATED: ingest tables -->";

  private TableDocs() {}

  public static String render() {
    StringBuilder out = new StringBuilder();
    out.append(BEGIN).append("\n\n");
    out.append("Written by [`ingest`](jobs.md#ingest) as Delta tables at `<output>/<table>` (see Storage above):")
        .append(" re-ingesting a log replaces its rows. Every row starts with `log_id`, `app_id` and `app_attempt_id`,")
        .append(" except in `property_sets`, whose rows logs share.")
        .append(" Times are epoch milliseconds, UTC. A metric the log's Spark version does not record is null, not 0.")
        .append("\n\n");
    for (Table table : Table.values()) {
      out.append("## ").append(table.tableName()).append("\n\n").append(table.description()).append("\n\n");
      out.append("| column | type | unit | meaning |\n| --- | --- | --- | --- |\n");
      for (Column column : table.columns()) {
        out.append("| `").append(column.name()).append("` | ")
            .append(column.type().simpleString().toLowerCase(Locale.ROOT).replace("|", "\\|")).append(" | ")
            .append(column.unit()).append(" | ")
            .append(column.description().replace("|", "\\|")).append(" |\n");
      }
      out.append("\n");
    }
    return out.append(END).toString();
  }

  /** The document with its generated section replaced, or with the section appended when it has none. */
  public static String update(String document) {
    Matcher matcher = Pattern.compile(Pattern.quote(BEGIN) + ".*?" + Pattern.quote(END), Pattern.DOTALL)
        .matcher(document);
    if (matcher.find()) {
      return document.substring(0, matcher.start()) + render() + document.substring(matcher.end());
    }
    return document.stripTrailing() + "\n\n" + render() + "\n";
  }
}
