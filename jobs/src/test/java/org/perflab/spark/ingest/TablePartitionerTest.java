package org.perflab.spark.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.perflab.table.KeyColumns;
import org.perflab.table.Table;
import org.perflab.table.TableRow;

class TablePartitionerTest {
  private static TableRow row(Table table, String logId) {
    // A table of rows shared by logs is laid out by its first column, the content's id.
    return table.newRow().set(table.keys() == Table.Keys.LOG ? KeyColumns.LOG_ID : table.columns().get(0).name(),
        logId);
  }

  @Test
  void everyTableOwnsItsOwnRangeOfPartitionsAndALogStaysInOne() {
    TablePartitioner layout = new TablePartitioner(3);
    assertThat(layout.numPartitions()).isEqualTo(3 * Table.values().length);
    for (Table table : Table.values()) {
      Set<Integer> partitions = new HashSet<>();
      for (int log = 0; log < 50; log++) {
        int key = layout.key(row(table, "log" + log));
        assertThat(layout.getPartition(key)).isBetween(layout.first(table), layout.first(table) + 2);
        assertThat(layout.key(row(table, "log" + log))).isEqualTo(key);
        partitions.add(key);
      }
      assertThat(partitions).hasSize(3);
    }
  }

  @Test
  void oneFilePerTableIsOnePartitionPerTable() {
    TablePartitioner layout = new TablePartitioner(0);
    assertThat(layout.files()).isEqualTo(1);
    assertThat(layout.key(row(Table.TASKS, "a"))).isEqualTo(Table.TASKS.ordinal());
    assertThat(layout.key(row(Table.PROPERTIES, "b"))).isEqualTo(Table.PROPERTIES.ordinal());
  }
}
