package org.perflab.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;

/** Asserts that two runs left the same rows in a table: equal multisets, less the columns that differ by design. */
final class SameRows {
  /** Columns that differ between two runs of the same logs by design. */
  static final List<String> PER_RUN = List.of("ingested_at_ms", "run_id");

  private SameRows() {}

  /** {@code got} holds exactly {@code want}'s rows, as multisets, less {@link #PER_RUN}; {@code name} labels failures. */
  static void assertSame(String name, Dataset<Row> want, Dataset<Row> got) {
    Dataset<Row> expected = comparable(want);
    Dataset<Row> actual = comparable(got);
    assertThat(actual.count()).as(name + " rows").isEqualTo(expected.count());
    assertThat(actual.exceptAll(expected).count()).as(name + " rows not in the clean run").isZero();
    assertThat(expected.exceptAll(actual).count()).as(name + " rows missing").isZero();
  }

  private static Dataset<Row> comparable(Dataset<Row> rows) {
    Dataset<Row> kept = rows;
    for (String column : PER_RUN) {
      if (List.of(rows.columns()).contains(column)) {
        kept = kept.drop(column);
      }
    }
    // Maps cannot be compared by exceptAll; their sorted entries can.
    for (StructField field : kept.schema().fields()) {
      if (field.dataType() instanceof MapType) {
        kept = kept.withColumn(field.name(), functions.array_sort(functions.map_entries(functions.col(field.name()))));
      }
    }
    return kept;
  }
}
