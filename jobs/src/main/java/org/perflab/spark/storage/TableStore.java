package org.perflab.spark.storage;

import io.delta.tables.DeltaTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.perflab.errors.BadInputException;
import org.perflab.table.KeyColumns;
import org.perflab.table.Table;

/**
 * PerfLab's tables under one output root, each a Delta Lake table at {@code <root>/<table>}, addressed by path and
 * not partitioned. Every write is one atomic Delta commit: appends for new logs, {@code replaceWhere} on
 * {@code log_id} for logs whose rows are replaced, and a whole-table overwrite for tables a job recomputes in full. Columns a later PerfLab version adds are added to an
 * existing table by Delta's schema evolution, without rewriting it.
 */
public final class TableStore {
  /** Delta's transaction log directory, present in every Delta table. */
  public static final String DELTA_LOG = "_delta_log";

  private final SparkSession spark;
  private final Path root;
  private final FileSystem fs;

  public TableStore(SparkSession spark, String root) {
    this.spark = spark;
    this.root = new Path(root);
    try {
      this.fs = this.root.getFileSystem(spark.sparkContext().hadoopConfiguration());
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot open output root: " + e.getMessage() + " (" + root + ")", e);
    }
  }

  public Path root() {
    return root;
  }

  public FileSystem fileSystem() {
    return fs;
  }

  public Path path(String table) {
    return fs.makeQualified(new Path(root, table));
  }

  /** Whether {@code table} is a Delta table under the root. */
  public boolean exists(String table) {
    try {
      return fs.exists(new Path(path(table), DELTA_LOG));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read output root: " + e.getMessage() + " (" + path(table) + ")", e);
    }
  }

  /**
   * Refuses an output root that holds tables of PerfLab's earlier layout (Parquet partitioned by {@code log_id}, no
   * Delta log), so that the two are never mixed.
   *
   * @throws BadInputException naming the table and how to re-ingest
   */
  public void requireNoLegacyTables(Collection<String> tables) {
    for (String table : tables) {
      Path dir = path(table);
      try {
        if (fs.isDirectory(dir) && !fs.exists(new Path(dir, DELTA_LOG))) {
          throw new BadInputException(String.format(
              "Cannot write Delta tables: %s holds PerfLab's earlier Parquet layout, which this version does not "
                  + "read (%s has no %s; re-ingest into a new --output, or delete %s and run ingest again)",
              root, dir, DELTA_LOG, root));
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read output root: " + e.getMessage() + " (" + dir + ")", e);
      }
    }
  }

  /** The table's current version, columns as written, or empty when there is no such Delta table. */
  public Optional<Dataset<Row>> read(String table) {
    if (!exists(table)) {
      return Optional.empty();
    }
    return Optional.of(spark.read().format("delta").load(path(table).toString()));
  }

  /** An ingest table's current version with its columns in the table's order, or empty when there is none. */
  public Optional<Dataset<Row>> read(Table table) {
    return read(table.tableName()).map(rows -> rows.selectExpr(table.schema().fieldNames()));
  }

  /**
   * Creates {@code table} with {@code schema} (and the table properties {@link DeltaSessions} sets as defaults) when it
   * does not exist; when it does, adds the columns of {@code schema} it lacks (Delta schema
   * evolution: a metadata-only commit).
   */
  public void ensure(String table, StructType schema) {
    if (!exists(table)) {
      DeltaTable.createIfNotExists(spark)
          .location(path(table).toString())
          .addColumns(schema)
          .execute();
      return;
    }
    evolve(table, schema);
  }

  /** Adds the columns of {@code schema} that {@code table} lacks, in a metadata-only commit. */
  public void evolve(String table, StructType schema) {
    StructType current = spark.read().format("delta").load(path(table).toString()).schema();
    Set<String> have = Arrays.stream(current.fieldNames()).collect(Collectors.toSet());
    List<StructField> missing = new ArrayList<>();
    for (StructField field : schema.fields()) {
      if (!have.contains(field.name())) {
        missing.add(field.copy(field.name(), field.dataType(), true, field.metadata()));
      }
    }
    if (!missing.isEmpty()) {
      List<StructField> all = new ArrayList<>(Arrays.asList(current.fields()));
      all.addAll(missing);
      StructType evolved = new StructType(all.toArray(new StructField[0]));
      spark.createDataFrame(List.of(), evolved).write().format("delta").mode(SaveMode.Append)
          .option("mergeSchema", "true").save(path(table).toString());
    }
  }

  /** Creates {@code table} with {@code schema} unless it exists; an existing table gains new columns on write. */
  public void create(String table, StructType schema) {
    if (!exists(table)) {
      ensure(table, schema);
    }
  }

  /** Appends rows in one commit. */
  public void append(String table, Dataset<Row> rows) {
    rows.write().format("delta").mode(SaveMode.Append).option("mergeSchema", "true").save(path(table).toString());
  }

  /**
   * Replaces every row of these logs with {@code rows} in one commit: the logs' old rows go and {@code rows}
   * arrive together. Only files whose {@code log_id} statistics admit one of the logs are read. {@code rows} must
   * hold only these logs; an empty {@code rows} deletes them.
   */
  public void replaceLogs(String table, Dataset<Row> rows, Collection<String> logIds) {
    if (logIds.isEmpty()) {
      return;
    }
    rows.write().format("delta").mode(SaveMode.Overwrite).option("mergeSchema", "true")
        .option("replaceWhere", logIdIn(logIds)).save(path(table).toString());
  }

  /** Replaces the rows that match the SQL {@code predicate} with {@code rows}, which must all match it. */
  public void replaceWhere(String table, Dataset<Row> rows, String predicate) {
    rows.write().format("delta").mode(SaveMode.Overwrite).option("mergeSchema", "true")
        .option("replaceWhere", predicate).save(path(table).toString());
  }

  /** Replaces the whole table with {@code rows} in one commit; readers see the old rows or the new, never a mix. */
  public void overwrite(String table, Dataset<Row> rows) {
    rows.write().format("delta").mode(SaveMode.Overwrite).option("mergeSchema", "true")
        .save(path(table).toString());
  }

  /** The SQL predicate {@code log_id IN ('…', …)}, ids sorted; log ids are hexadecimal, so no quoting is needed. */
  public static String logIdIn(Collection<String> logIds) {
    TreeSet<String> sorted = new TreeSet<>(logIds);
    for (String id : sorted) {
      if (!id.matches("[0-9a-zA-Z_.-]+")) {
        throw new IllegalArgumentException("Cannot select log: its id is not a plain token (" + id + ")");
      }
    }
    return KeyColumns.LOG_ID + " IN (" + sorted.stream().map(id -> "'" + id + "'").collect(Collectors.joining(","))
        + ")";
  }

  /** The table directories directly under the root (Delta or not), names only; empty when the root is absent. */
  public List<String> tableDirectories() {
    try {
      if (!fs.exists(root)) {
        return List.of();
      }
      List<String> names = new ArrayList<>();
      for (FileStatus status : fs.listStatus(root)) {
        String name = status.getPath().getName();
        if (status.isDirectory() && !name.startsWith("_") && !name.startsWith(".")) {
          names.add(name);
        }
      }
      return names;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list output root: " + e.getMessage() + " (" + root + ")", e);
    }
  }

  /**
   * {@code column} of {@code rows}, or a null of {@code type} when {@code rows} come from a table written before the
   * column existed.
   */
  public static org.apache.spark.sql.Column columnOrNull(Dataset<Row> rows, String column, DataType type) {
    return Arrays.asList(rows.columns()).contains(column) ? org.apache.spark.sql.functions.col(column)
        : org.apache.spark.sql.functions.lit(null).cast(type);
  }

  /**
   * {@code rows} with exactly {@code schema}'s columns, in its order, cast to its types and carrying its nullability,
   * so that a write matches the documented schema whatever the transform produced.
   */
  public static Dataset<Row> conform(Dataset<Row> rows, StructType schema) {
    org.apache.spark.sql.Column[] columns = java.util.Arrays.stream(schema.fields())
        .map(f -> org.apache.spark.sql.functions.col(f.name()).cast(f.dataType()).as(f.name()))
        .toArray(org.apache.spark.sql.Column[]::new);
    Dataset<Row> selected = rows.select(columns);
    return selected.sparkSession().createDataFrame(selected.javaRDD(), schema);
  }
}
