package org.perflab.spark.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.delta.tables.DeltaTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.LongStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.spark.ingest.SparkTestSession;

/**
 * When Delta's auto compaction, on in every PerfLab table ({@link DeltaSessions}), rewrites a table, as
 * docs/tables.md ("Bounded files") states it: after the table's first commit in this JVM, whatever the number of
 * small files (here the 4 files of a first write), and then not before the small files this JVM's commits left in the
 * table (a compaction's own file included) number {@link DeltaSessions#AUTO_COMPACT_MIN_FILES}.
 */
class AutoCompactionTest {
  private static final StructType SCHEMA = new StructType().add("log_id", DataTypes.StringType, false)
      .add("value", DataTypes.LongType, true);

  @TempDir Path temp;

  @Test
  void aTablesFirstMultiFileCommitIsCompactedThenOnlyOnceEnoughSmallFilesWereAdded() {
    SparkSession spark = SparkTestSession.get();
    TableStore store = new TableStore(spark, temp.toString());
    int firstFiles = DeltaSessions.AUTO_COMPACT_MIN_FILES / 2;
    store.overwrite("t", rows(spark, 0, 40).repartition(firstFiles));
    // Below the threshold, and compacted all the same: Delta compacts a table it has not compacted in this JVM.
    assertThat(operations()).containsExactly("WRITE", "OPTIMIZE");
    assertThat(dataFiles(spark)).isEqualTo(1);

    int appends = 0;
    while (operations().size() == 2 + appends && appends < 2 * DeltaSessions.AUTO_COMPACT_MIN_FILES) {
      store.append("t", rows(spark, 100 + appends, 1).coalesce(1));
      appends++;
    }
    // Each append adds one small file. Delta counts the small files this JVM's commits left in the table, the first
    // compaction's own file among them, so the next compaction follows the append that brings the count to the
    // threshold: AUTO_COMPACT_MIN_FILES - 1 appends, never earlier.
    System.out.println("auto compaction: again after " + appends + " single-file appends");
    assertThat(appends).isEqualTo(DeltaSessions.AUTO_COMPACT_MIN_FILES - 1);
    List<String> operations = operations();
    assertThat(operations.get(operations.size() - 1)).isEqualTo("OPTIMIZE");
    assertThat(operations.subList(2, operations.size() - 1)).containsOnly("WRITE");
    assertThat(dataFiles(spark)).isEqualTo(1);
    assertThat(store.read("t").orElseThrow().count()).isEqualTo(40 + appends);
  }

  private Dataset<Row> rows(SparkSession spark, long first, long count) {
    return spark.createDataFrame(LongStream.range(first, first + count)
        .mapToObj(i -> RowFactory.create("log-" + i, i)).toList(), SCHEMA);
  }

  /** The table's operations, oldest first, read from its log's commit files (no Spark query per append). */
  private List<String> operations() {
    try {
      FileSystem fs = FileSystem.getLocal(new Configuration());
      org.apache.hadoop.fs.Path table = new org.apache.hadoop.fs.Path(temp.resolve("t").toUri());
      return DeltaCommits.versions(fs, table).stream()
          .map(version -> DeltaCommits.operation(fs, DeltaCommits.commitFile(table, version))).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private long dataFiles(SparkSession spark) {
    return DeltaTable.forPath(spark, temp.resolve("t").toString()).detail().first().<Long>getAs("numFiles");
  }
}
