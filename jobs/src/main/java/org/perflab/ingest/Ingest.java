package org.perflab.ingest;

import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.PatternSyntaxException;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.util.SerializableConfiguration;
import org.perflab.errors.BadInputException;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.eventlog.source.Discovery;
import org.perflab.eventlog.source.EventLogSource;
import org.perflab.eventlog.source.LogDiscovery;
import org.perflab.eventlog.source.SkippedFile;
import org.perflab.table.KeyColumns;
import org.perflab.table.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ingests event logs into the tables: discovers logs, parses each on an executor (one task per log), drops copies of
 * an application attempt that another log holds better, and replaces each log's partitions. {@code ingest_status} is
 * written last, so a run killed midway is redone by the next run.
 */
public final class Ingest {
  private static final Logger LOG = LoggerFactory.getLogger(Ingest.class);
  /** Tasks per core for the jobs that select and write the tables out of the parsed rows. */
  private static final int WRITE_TASKS_PER_CORE = 4;

  private final SparkSession spark;
  private final IngestOptions options;
  private final Clock clock;
  private final TableStore store;

  public Ingest(SparkSession spark, IngestOptions options, Clock clock) {
    this.spark = spark;
    this.options = options;
    this.clock = clock;
    this.store = new TableStore(spark, options.output());
  }

  public IngestSummary run() throws IOException {
    Redactor redactor = redactor(options.redactionPattern());
    Configuration conf = spark.sparkContext().hadoopConfiguration();
    Discovery discovery = LogDiscovery.discover(options.inputs(), conf);
    Map<String, PreviousLog> previous = previousLogs();
    List<EventLogSource> toParse = new ArrayList<>();
    int unchanged = 0;
    int tooRecent = 0;
    long newestAllowed = clock.millis() - options.minAgeSeconds() * 1000L;
    for (EventLogSource source : discovery.logs()) {
      PreviousLog before = previous.get(source.logId());
      if (options.minAgeSeconds() > 0 && source.modificationTimeMs() > newestAllowed) {
        LOG.info("Skipping {}: modified within {} s; a later run will ingest it", redactor.redactText(source.path()),
            options.minAgeSeconds());
        tooRecent++;
      } else if (options.incremental() && before != null
          && before.unchanged(source.bytes(), source.modificationTimeMs())) {
        unchanged++;
      } else {
        toParse.add(source);
      }
    }
    ParseResult result = parse(toParse, redactor);
    Map<String, String> pathById = pathsById(toParse, previous);
    List<Row> statusRows = new ArrayList<>();
    Map<String, String> losers = supersede(result, previous, pathById, statusRows);
    writeDataTables(result, previous, losers);
    for (SkippedFile file : discovery.skipped()) {
      statusRows.add(StatusRows.skippedFile(file, clock));
    }
    for (Row status : result.statusRows()) {
      String logId = status.getAs(KeyColumns.LOG_ID);
      String winner = losers.get(logId);
      statusRows.add(winner == null ? status : StatusRows.superseded(status, pathById.get(winner)));
    }
    store.write(Table.INGEST_STATUS, spark.createDataFrame(statusRows, Table.INGEST_STATUS.schema()));
    result.persisted().unpersist();
    return new IngestSummary(discovery.logs().size(), toParse.size(), unchanged, tooRecent,
        discovery.skipped().size(), losers.size(), StatusRows.countByStatus(statusRows));
  }

  static Redactor redactor(String pattern) {
    try {
      return new Redactor(pattern);
    } catch (PatternSyntaxException e) {
      throw new BadInputException(
          "Cannot use --redaction-regex: it is not a valid regular expression (" + e.getDescription() + ": "
              + pattern + ")");
    }
  }

  private Map<String, PreviousLog> previousLogs() {
    Map<String, PreviousLog> previous = new HashMap<>();
    store.read(Table.INGEST_STATUS).ifPresent(status -> status.collectAsList()
        .forEach(row -> previous.put(row.getAs(KeyColumns.LOG_ID), PreviousLog.of(row))));
    return previous;
  }

  /**
   * The rows of every parsed log, persisted so that each table is selected out of one parse; {@code rows} reads them
   * in fewer partitions (see {@link #forWrites}).
   */
  private record ParseResult(Dataset<Row> persisted, Dataset<Row> rows, List<Row> statusRows, Set<String> logIds) {}

  private ParseResult parse(List<EventLogSource> sources, Redactor redactor) {
    List<EventLogSource> largestFirst = new ArrayList<>(sources);
    largestFirst.sort(Comparator.comparingLong(EventLogSource::bytes).reversed());
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    jsc.setJobGroup("perflab-ingest", "PerfLab ingest: parse " + sources.size() + " event logs", false);
    SerializableConfiguration conf = new SerializableConfiguration(jsc.hadoopConfiguration());
    JavaRDD<Row> rows = jsc.parallelize(largestFirst, Math.max(1, largestFirst.size()))
        .flatMap(new ParseLogs(jsc.broadcast(conf), redactor));
    Dataset<Row> union = spark.createDataFrame(rows, UnionRows.SCHEMA).persist(StorageLevel.DISK_ONLY());
    List<Row> statusRows = UnionRows.select(union, Table.INGEST_STATUS).collectAsList();
    Set<String> logIds = new HashSet<>();
    sources.forEach(source -> logIds.add(source.logId()));
    return new ParseResult(union, forWrites(union, sources.size()), statusRows, logIds);
  }

  /**
   * The parsed rows in a few partitions per core. Parsing runs one task per log, but every later task pays a fixed
   * cost whatever its size (scheduling, planning and generating code for the wide union schema, committing), and
   * selecting and writing the tables one task per log would cost tables x logs tasks. Merged partitions still hold
   * each log's rows whole, so each log still gets one file per table.
   */
  private Dataset<Row> forWrites(Dataset<Row> union, int logs) {
    int tasks = Math.max(1, Math.min(logs, spark.sparkContext().defaultParallelism() * WRITE_TASKS_PER_CORE));
    return union.coalesce(tasks);
  }

  /**
   * Finds the copies of application attempts to drop, among this run's logs and those of earlier runs. Earlier
   * copies that lose have their partitions deleted and their status rewritten as SKIPPED.
   */
  private Map<String, String> supersede(
      ParseResult result, Map<String, PreviousLog> previous, Map<String, String> pathById, List<Row> statusRows) {
    List<Deduplication.Claim> claims = new ArrayList<>();
    UnionRows.select(result.rows(), Table.APPLICATIONS).collectAsList()
        .forEach(row -> claims.add(Deduplication.Claim.of(row)));
    store.read(Table.APPLICATIONS).ifPresent(apps -> apps.collectAsList().stream()
        .map(Deduplication.Claim::of)
        .filter(claim -> !result.logIds().contains(claim.logId()))
        .forEach(claims::add));
    Map<String, String> losers = Deduplication.losers(claims);
    for (Map.Entry<String, String> loser : losers.entrySet()) {
      PreviousLog earlier = previous.get(loser.getKey());
      if (earlier != null && !result.logIds().contains(loser.getKey())) {
        for (Table table : dataTables()) {
          store.deletePartitions(table, List.of(loser.getKey()));
        }
        String winnerPath = pathById.getOrDefault(loser.getValue(), loser.getValue());
        statusRows.add(StatusRows.superseded(earlier.row(), winnerPath));
      }
    }
    return losers;
  }

  private void writeDataTables(ParseResult result, Map<String, PreviousLog> previous, Map<String, String> losers) {
    Set<String> reingested = new HashSet<>(result.logIds());
    reingested.retainAll(previous.keySet());
    for (Table table : dataTables()) {
      Dataset<Row> rows = UnionRows.select(result.rows(), table);
      if (!losers.isEmpty()) {
        rows = rows.filter(UnionRows.logId().isin(losers.keySet().toArray()).unary_$bang());
      }
      store.write(table, rows);
      if (!reingested.isEmpty()) {
        Set<String> stale = new HashSet<>(reingested);
        rows.select(KeyColumns.LOG_ID).distinct().collectAsList().forEach(row -> stale.remove(row.getString(0)));
        store.deletePartitions(table, stale);
      }
    }
  }

  private static Map<String, String> pathsById(List<EventLogSource> sources, Map<String, PreviousLog> previous) {
    Map<String, String> paths = new HashMap<>();
    previous.values().forEach(log -> paths.put(log.logId(), log.path()));
    sources.forEach(source -> paths.put(source.logId(), source.path()));
    return paths;
  }

  private static List<Table> dataTables() {
    List<Table> tables = new ArrayList<>(List.of(Table.values()));
    tables.remove(Table.INGEST_STATUS);
    return tables;
  }
}
