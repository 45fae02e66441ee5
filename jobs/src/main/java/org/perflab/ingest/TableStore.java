package org.perflab.ingest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collection;
import java.util.Optional;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.perflab.table.KeyColumns;
import org.perflab.table.Table;

/**
 * The ingest tables under one output root: {@code <root>/<table>/log_id=<id>/*.parquet}. Writing replaces the
 * partitions of the logs written and leaves every other log's partition alone (Spark's dynamic partition overwrite,
 * which stages files and moves them in at commit, so a killed run leaves the earlier tables readable).
 */
final class TableStore {
  private final SparkSession spark;
  private final Path root;
  private final FileSystem fs;

  TableStore(SparkSession spark, String root) {
    this.spark = spark;
    this.root = new Path(root);
    try {
      this.fs = this.root.getFileSystem(spark.sparkContext().hadoopConfiguration());
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot open output: " + e.getMessage() + " (" + root + ")", e);
    }
  }

  Path path(Table table) {
    return new Path(root, table.tableName());
  }

  Path root() {
    return root;
  }

  FileSystem fileSystem() {
    return fs;
  }

  /** The table as written by earlier runs, columns in the table's order, or empty when there is none. */
  Optional<Dataset<Row>> read(Table table) {
    Path path = path(table);
    try {
      if (!fs.exists(path) || fs.listStatus(path, p -> p.getName().startsWith(KeyColumns.LOG_ID + "=")).length == 0) {
        return Optional.empty();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read table: " + e.getMessage() + " (" + path + ")", e);
    }
    String[] columns = table.schema().fieldNames();
    return Optional.of(
        spark.read().schema(table.schema()).option("basePath", path.toString()).parquet(path.toString())
            .selectExpr(columns));
  }

  /** Replaces the partitions of the logs in {@code rows}; other logs' partitions stay. */
  void write(Table table, Dataset<Row> rows) {
    rows.write()
        .mode(SaveMode.Overwrite)
        .option("partitionOverwriteMode", "dynamic")
        .partitionBy(KeyColumns.LOG_ID)
        .parquet(path(table).toString());
  }

  /** Deletes the partitions of these logs from a table. */
  void deletePartitions(Table table, Collection<String> logIds) {
    for (String logId : logIds) {
      Path partition = new Path(path(table), KeyColumns.LOG_ID + "=" + logId);
      try {
        fs.delete(partition, true);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot delete partition: " + e.getMessage() + " (" + partition + ")", e);
      }
    }
  }
}
