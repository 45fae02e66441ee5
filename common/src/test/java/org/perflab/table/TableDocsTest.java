package org.perflab.table;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Keeps {@code docs/tables.md} in step with {@link Table}. To regenerate the section after changing a table, run
 * {@code mvn -q -pl common test -Dtest=TableDocsTest -Dperflab.updateDocs=true}.
 */
class TableDocsTest {
  private static final Path DOC = Paths.get("..", "docs", "tables.md");

  @Test
  void docsDescribeEveryIngestTableAndColumn() throws IOException {
    String document = Files.readString(DOC, StandardCharsets.UTF_8);
    String updated = TableDocs.update(document);
    if (Boolean.getBoolean("perflab.updateDocs")) {
      Files.writeString(DOC, updated, StandardCharsets.UTF_8);
      document = updated;
    }
    assertThat(document).as("docs/tables.md is stale; see TableDocsTest's Javadoc").isEqualTo(updated);
  }

  @Test
  void columnNamesAreSnakeCaseAndUniqueWithUnitsOnTimes() {
    for (Table table : Table.values()) {
      Set<String> names = new HashSet<>();
      for (Column column : table.columns()) {
        assertThat(column.name()).matches("[a-z][a-z0-9_]*");
        assertThat(names.add(column.name())).as(table + "." + column.name() + " repeated").isTrue();
        if (column.name().endsWith("_ms") || column.name().endsWith("_ns") || column.name().endsWith("_bytes")) {
          assertThat(column.unit()).as(table + "." + column.name()).isNotEmpty();
        }
      }
      if (table.keys() == Table.Keys.LOG) {
        assertThat(table.columns().subList(0, 3)).isEqualTo(KeyColumns.ALL);
      } else {
        assertThat(names).as(table + ": rows shared by logs carry no log key").doesNotContain(KeyColumns.LOG_ID);
      }
    }
  }
}
