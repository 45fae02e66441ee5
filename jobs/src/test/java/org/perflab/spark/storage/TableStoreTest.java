package org.perflab.spark.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.errors.BadInputException;
import org.perflab.spark.ingest.SparkTestSession;

/** The Delta storage layer on local[2]: per-log replacement, schema evolution, the earlier layout refused. */
class TableStoreTest {
  private static final StructType V1 = new StructType().add("log_id", DataTypes.StringType, false)
      .add("value", DataTypes.LongType, true);
  private static final StructType V2 = V1.add("added_later", DataTypes.StringType, true);
  private static SparkSession spark;

  @TempDir Path temp;

  @BeforeAll
  static void startSpark() {
    spark = SparkTestSession.get();
  }

  private List<Row> rows(TableStore store) {
    return store.read("t").orElseThrow().orderBy("log_id", "value").collectAsList();
  }

  @Test
  void replacingLogsTouchesOnlyTheirRowsAndAppendsAddOthers() {
    TableStore store = new TableStore(spark, temp.toString());
    store.create("t", V1);
    store.append("t", spark.createDataFrame(List.of(RowFactory.create("a", 1L), RowFactory.create("a", 2L),
        RowFactory.create("b", 3L)), V1));
    store.replaceLogs("t", spark.createDataFrame(List.of(RowFactory.create("a", 10L)), V1), List.of("a", "gone"));
    store.append("t", spark.createDataFrame(List.of(RowFactory.create("c", 4L)), V1));

    assertThat(rows(store)).extracting(Row::toString).containsExactly("[a,10]", "[b,3]", "[c,4]");
    assertThat(spark.read().format("delta").option("versionAsOf", 1).load(temp.resolve("t").toString()).count())
        .as("time travel to the first append").isEqualTo(3);
  }

  @Test
  void aColumnAddedByALaterVersionIsAddedWithoutRewritingTheTable() throws Exception {
    TableStore store = new TableStore(spark, temp.toString());
    store.create("t", V1);
    store.append("t", spark.createDataFrame(List.of(RowFactory.create("a", 1L)), V1));
    List<String> written = List.of(store.read("t").orElseThrow().inputFiles());

    store.ensure("t", V2);
    store.append("t", spark.createDataFrame(List.of(RowFactory.create("b", 2L, "new")), V2));

    assertThat(store.read("t").orElseThrow().schema().fieldNames()).containsExactly("log_id", "value", "added_later");
    assertThat(rows(store)).extracting(Row::toString).containsExactly("[a,1,null]", "[b,2,new]");
    assertThat(written).hasSize(1);
    assertThat(List.of(store.read("t").orElseThrow().inputFiles())).as("the first file is still read, not rewritten")
        .containsAll(written);
  }

  @Test
  void anOutputRootOfTheEarlierParquetLayoutIsRefusedWithHowToReingest() throws Exception {
    Files.createDirectories(temp.resolve("tasks/log_id=0123456789abcdef"));
    TableStore store = new TableStore(spark, temp.toString());

    assertThatThrownBy(() -> store.requireNoLegacyTables(List.of("applications", "tasks")))
        .isInstanceOf(BadInputException.class)
        .hasMessageStartingWith("Cannot write Delta tables: " + temp)
        .hasMessageContaining("re-ingest into a new --output");
  }
}
