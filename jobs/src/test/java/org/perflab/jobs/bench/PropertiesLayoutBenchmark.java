package org.perflab.jobs.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.spark.environment.EffectiveProperties;
import org.perflab.spark.ingest.Ingest;
import org.perflab.spark.ingest.IngestOptions;
import org.perflab.spark.storage.DeltaSessions;
import org.perflab.spark.storage.TableStore;
import org.perflab.table.Table;

/**
 * Rows and bytes per log of the environment, before and after property sets (issue 26): [logs] logs (default: the 10
 * bundled samples; more are copies of them under new application ids, {@link ArchiveBuilder}) ingested into a fresh
 * root; then the same effective properties written in the layout before property sets (every category per log in
 * {@code properties}, one file, as ingest writes an archive of this size), in the same run. Bytes are the Parquet data
 * files of the tables' current versions, without {@code _delta_log}.
 */
public final class PropertiesLayoutBenchmark {
  private PropertiesLayoutBenchmark() {}

  public static void main(String[] args) throws IOException {
    Path work = Files.createTempDirectory("perflab-properties-layout");
    Path archive = work.resolve("logs");
    int logs;
    if (args.length > 0) {
      logs = Integer.parseInt(args[0]);
      ArchiveBuilder.of(Files.createDirectories(archive)).add(0, logs);
    } else {
      archive = Path.of("samples", "spark-events");
      try (Stream<Path> files = Files.list(archive)) {
        logs = (int) files.count();
      }
    }
    System.out.printf("load average %.2f%n", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    SparkSession spark = DeltaSessions.builder("perflab properties layout benchmark").master("local[2]")
        .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "4").getOrCreate();
    String root = work.resolve("out").toString();
    new Ingest(spark, new IngestOptions(List.of(archive.toString()), root, false, Redactor.DEFAULT_PATTERN, 0),
        Clock.systemUTC()).run();
    TableStore store = new TableStore(spark, root);
    Dataset<Row> effective = EffectiveProperties.read(store).orElseThrow();
    String before = work.resolve("before").toString();
    effective.coalesce(1).write().format("delta").save(before + "/" + Table.PROPERTIES.tableName());

    System.out.printf("%d logs, %d effective properties%n", logs, effective.count());
    long rowsBefore = report(spark, before, Table.PROPERTIES, logs, "before");
    long bytesBefore = bytes(Path.of(before, Table.PROPERTIES.tableName()));
    long rowsAfter = 0;
    long bytesAfter = 0;
    for (Table table : List.of(Table.PROPERTIES, Table.PROPERTY_SET_REFS, Table.PROPERTY_SETS)) {
      rowsAfter += report(spark, root, table, logs, "after");
      bytesAfter += bytes(Path.of(root, table.tableName()));
    }
    System.out.printf("after, all three: %d rows (%.1f per log), %d bytes (%.0f per log)%n", rowsAfter,
        rowsAfter / (double) logs, bytesAfter, bytesAfter / (double) logs);
    System.out.printf("ratio before/after: rows %.1fx, bytes %.1fx%n", rowsBefore / (double) rowsAfter,
        bytesBefore / (double) bytesAfter);
    spark.stop();
  }

  /** Prints and returns the rows of {@code table} under {@code root}, with its bytes, per log. */
  private static long report(SparkSession spark, String root, Table table, int logs, String layout)
      throws IOException {
    long rows = new TableStore(spark, root).read(table).orElseThrow().count();
    long bytes = bytes(Path.of(root, table.tableName()));
    System.out.printf("%-6s %-18s %9d rows (%7.1f per log) %10d bytes (%7.0f per log)%n", layout, table.tableName(),
        rows, rows / (double) logs, bytes, bytes / (double) logs);
    return rows;
  }

  /** Bytes of the Parquet files of a Delta table's directory (a fresh table: every file is in its current version). */
  private static long bytes(Path table) throws IOException {
    try (Stream<Path> files = Files.walk(table)) {
      return files.filter(f -> f.toString().endsWith(".parquet") && !f.toString().contains("_delta_log"))
          .mapToLong(f -> f.toFile().length()).sum();
    }
  }
}
