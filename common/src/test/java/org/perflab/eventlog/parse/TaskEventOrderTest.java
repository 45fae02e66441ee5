package org.perflab.eventlog.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.perflab.eventlog.fixture.LogFixtures;
import org.perflab.table.Table;
import org.perflab.testing.SharedData;

/** Task events whose fields are not in Spark's order (written by other tools) parse to the same rows. */
class TaskEventOrderTest {
  private static final String TASK_END = "\"Event\":\"SparkListenerTaskEnd\",";

  @Test
  void taskEndWithTheEventFieldLastGivesTheSameRows() {
    List<String> lines = LogFixtures.readLines(SharedData.sparkEvents().resolve("application_1553914137147_0018"));
    List<String> reordered = new ArrayList<>();
    int moved = 0;
    for (String line : lines) {
      if (line.contains(TASK_END)) {
        line = "{" + line.substring(1).replace(TASK_END, "").replaceFirst("}$", ",\"Event\":\"SparkListenerTaskEnd\"}");
        moved++;
      }
      reordered.add(line);
    }
    LogIdentity identity = new LogIdentity("0000000000000001", "file:/x", "SINGLE_FILE", "NONE", 0, 0, false,
        "application_1553914137147_0018", null);

    ParsedLog original = ParsedLog.parse(identity, lines, true);
    ParsedLog parsed = ParsedLog.parse(identity, reordered, true);

    assertThat(moved).isPositive();
    assertThat(parsed.status().get("status")).isEqualTo("OK");
    for (Table table : List.of(Table.TASKS, Table.STAGES, Table.EXECUTORS, Table.JOBS)) {
      assertThat(parsed.rows(table)).hasSameSizeAs(original.rows(table));
      for (int i = 0; i < original.rows(table).size(); i++) {
        assertThat(render(parsed.rows(table).get(i))).isEqualTo(render(original.rows(table).get(i)));
      }
    }
  }

  /** The row's values; the lineage structs (Spark rows holding arrays) are left out, they come from other events. */
  private static String render(org.perflab.table.TableRow row) {
    Object[] values = row.values().clone();
    if (row.table() == Table.STAGES) {
      values[Table.STAGES.indexOf("rdds")] = null;
    }
    return Arrays.deepToString(values);
  }
}
