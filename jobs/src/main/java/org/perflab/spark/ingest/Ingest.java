package org.perflab.spark.ingest;

import java.io.IOException;
import java.io.Serializable;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.random.RandomGenerator;
import java.util.regex.PatternSyntaxException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.rdd.PartitionPruningRDD;
import org.apache.spark.rdd.RDD;
import org.apache.spark.util.LongAccumulator;
import scala.Tuple2;
import scala.reflect.ClassTag$;
import scala.runtime.AbstractFunction1;
import org.apache.spark.util.SerializableConfiguration;
import org.perflab.errors.BadInputException;
import org.perflab.errors.Futures;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.eventlog.source.Discovery;
import org.perflab.eventlog.source.EventLogSource;
import org.perflab.eventlog.source.LogDiscovery;
import org.perflab.eventlog.source.SkippedFile;
import org.perflab.spark.storage.CompiledExpressions;
import org.perflab.spark.storage.DeltaSessions;
import org.perflab.spark.storage.SessionConf;
import org.perflab.spark.storage.OutputLock;
import org.perflab.spark.storage.TableStore;
import org.perflab.spark.storage.TestPause;
import org.perflab.table.KeyColumns;
import org.perflab.table.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ingests event logs into the Delta tables: discovers logs, parses size-balanced groups of them on executors, drops
 * copies of an application attempt that another log holds better, and commits each table. New logs are appended;
 * logs that are re-ingested, superseded, or were being written by a killed run have their rows replaced in one
 * commit per table. {@code ingest_status} is committed last (its rows of this run's logs replaced), so a reader that joins to it sees only complete logs,
 * and a run killed midway is redone by the next. One run at a time holds the output root ({@link OutputLock}).
 */
public final class Ingest {
  private static final Logger LOG = LoggerFactory.getLogger(Ingest.class);
  /** Rows of logs this many bytes (on storage) or more go to one more file per table commit. */
  private static final long LOG_BYTES_PER_WRITTEN_FILE = 4L << 30;
  /** Tables committed at once: their commits are independent, and overlapping them hides each one's planning. */
  private static final int WRITER_THREADS = 3;

  private final SparkSession spark;
  private final IngestOptions options;
  private final Clock clock;
  private final RandomGenerator random;
  private final TableStore store;
  private final TestPause pause;

  public Ingest(SparkSession spark, IngestOptions options, Clock clock, RandomGenerator random) {
    this.spark = spark;
    this.options = options;
    this.clock = clock;
    this.random = random;
    this.store = new TableStore(spark, options.output());
    this.pause = TestPause.fromEnvironment();
  }

  public Ingest(SparkSession spark, IngestOptions options, Clock clock) {
    this(spark, options, clock, new java.util.SplittableRandom());
  }

  public IngestSummary run() throws IOException {
    Redactor redactor = redactor(options.redactionPattern());
    store.requireNoLegacyTables(allTables());
    PhaseTimer timer = new PhaseTimer(clock);
    Discovery discovery = discover();
    try (OutputLock lock = OutputLock.acquire(store.fileSystem(), store.root(), "ingest", clock)) {
      timer.end("discover");
      return ingest(discovery, redactor, timer);
    }
  }

  private IngestSummary ingest(Discovery discovery, Redactor redactor, PhaseTimer timer) {
    String runId = RunIds.next(clock, random);
    Map<String, PreviousLog> previous = previousLogs();
    PendingRuns pendingRuns = new PendingRuns(store.fileSystem(), store.root());
    List<Path> journals = pendingRuns.journals();
    Set<String> unfinished = pendingRuns.logIds(journals);
    Plan plan = Plan.of(discovery.logs(), previous, unfinished, options, clock, redactor);
    journals = new ArrayList<>(journals);
    journals.add(pendingRuns.start(runId, plan.toParse().stream().map(EventLogSource::logId).toList()));
    timer.end("plan");

    ParseResult result = parse(plan.toParse(), redactor);
    timer.end("parse");
    pause.at(TestPause.Point.AFTER_PARSE);

    Map<String, String> pathById = pathsById(plan.toParse(), previous);
    List<Row> statusRows = new ArrayList<>();
    Map<String, String> losers = supersede(result, previous, pathById, statusRows);
    Set<String> replaced = replacedLogs(result.logIds(), previous.keySet(), unfinished, losers);
    // Writing millions of task rows: Delta's statistics and the rows' conversion compiled (CompiledExpressions)
    long taskRows = result.rowsByTable().getOrDefault(Table.TASKS.tableName(), 0L);
    Map<String, Long> rowsByTable = SessionConf.unlessSet(spark,
        CompiledExpressions.pay(taskRows) ? CompiledExpressions.SETTINGS : Map.of(),
        () -> writeDataTables(result, losers, replaced));
    timer.end("write tables");

    for (SkippedFile file : discovery.skipped()) {
      statusRows.add(StatusRows.skippedFile(file, clock));
    }
    for (Row status : result.statusRows()) {
      String logId = status.getAs(KeyColumns.LOG_ID);
      String winner = losers.get(logId);
      statusRows.add(winner == null ? status : StatusRows.superseded(status, pathById.get(winner)));
    }
    List<Row> stamped = StatusRows.withRunId(StatusRows.lastPerLog(statusRows), runId);
    Set<String> statusLogs = new HashSet<>();
    stamped.forEach(row -> statusLogs.add(row.getString(Table.INGEST_STATUS.indexOf(KeyColumns.LOG_ID))));
    if (!stamped.isEmpty()) {
      // A run that found nothing new commits nothing: an empty commit would make every table version-stamped since
      // look changed to the nightly (a step whose inputs did not change is not rerun, operations.md).
      commitStatus(spark.createDataFrame(stamped, Table.INGEST_STATUS.schema()).coalesce(1), statusLogs, previous,
          unfinished);
    }
    rowsByTable.put(Table.INGEST_STATUS.tableName(), (long) stamped.size());
    pendingRuns.finish(journals);
    timer.end("commit status");
    return new IngestSummary(runId, discovery.logs().size(), plan.toParse().size(), plan.unchanged(),
        plan.tooRecent(), discovery.skipped().size(), losers.size(), StatusRows.countByStatus(stamped),
        rowsByTable, timer.phases(), store.fileSystem().makeQualified(store.root()).toString());
  }

  /**
   * Commits the status rows: appended when none of their logs can have a status row already (not in an earlier run's
   * status nor in an unfinished run), so the commit reads nothing of the table; else the logs' rows are replaced. A
   * replace selects every file whose {@code log_id} range admits one of the logs, which with ids spread over the whole
   * range is the whole table.
   */
  private void commitStatus(Dataset<Row> rows, Set<String> logs, Map<String, PreviousLog> previous,
      Set<String> unfinished) {
    boolean fresh = logs.stream().noneMatch(id -> previous.containsKey(id) || unfinished.contains(id));
    withAutoCompactionOff(() -> {
      if (fresh) {
        store.append(Table.INGEST_STATUS.tableName(), rows);
      } else {
        store.replaceLogs(Table.INGEST_STATUS.tableName(), rows, logs);
      }
    });
  }

  /** The logs under the inputs, without anything under the output root, which is never read as input. */
  private Discovery discover() throws IOException {
    Configuration conf = spark.sparkContext().hadoopConfiguration();
    Discovery found = LogDiscovery.discover(options.inputs(), conf);
    String root = store.fileSystem().makeQualified(store.root()).toString();
    String prefix = root.endsWith("/") ? root : root + "/";
    List<EventLogSource> logs = found.logs().stream()
        .filter(log -> !log.path().startsWith(prefix) && !log.path().equals(root)).toList();
    List<SkippedFile> skipped = found.skipped().stream().filter(file -> !file.path().startsWith(prefix)).toList();
    int inRoot = found.logs().size() - logs.size() + found.skipped().size() - skipped.size();
    if (inRoot > 0) {
      LOG.info("Not reading {} files under the output root {}: PerfLab's own tables are never input", inRoot, root);
    }
    BadInputException.require(!logs.isEmpty() || !skipped.isEmpty() || inRoot == 0,
        "Cannot ingest: the inputs hold nothing but the output root (%s)", root);
    return new Discovery(logs, skipped);
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

  /**
   * Every log of {@code ingest_status} with the columns planning needs (not the whole rows: their maps and arrays
   * were most of the bytes an incremental run collected before parsing anything).
   */
  private Map<String, PreviousLog> previousLogs() {
    Map<String, PreviousLog> previous = new HashMap<>();
    store.read(Table.INGEST_STATUS).ifPresent(status -> status.select(PreviousLog.COLUMNS).collectAsList()
        .forEach(row -> previous.put(row.getAs(KeyColumns.LOG_ID), PreviousLog.of(row))));
    return previous;
  }

  /**
   * The rows of every parsed log, shuffled once into {@link TablePartitioner}'s layout (the shuffle files stay on disk
   * while the run holds this), so that each table is selected out of one parse by reading only its own partitions;
   * {@link #table} makes one table's DataFrame, in as many partitions as its written files should number.
   */
  private record ParseResult(SparkSession spark, JavaPairRDD<Integer, Row> persisted, TablePartitioner layout,
      List<Row> statusRows, Set<String> logIds, Map<String, Long> rowsByTable) {

    Dataset<Row> table(Table table) {
      int first = layout.first(table);
      int end = first + layout.files();
      RDD<Tuple2<Integer, Row>> own = PartitionPruningRDD.create(persisted.rdd(), new PartitionRange(first, end));
      JavaRDD<Row> rows = JavaPairRDD.fromRDD(own, ClassTag$.MODULE$.apply(Integer.class),
          ClassTag$.MODULE$.apply(Row.class)).values();
      return spark.createDataFrame(rows, table.schema());
    }
  }

  /** Whether a partition index is in {@code [first, end)}: a Scala function, for {@link PartitionPruningRDD}. */
  private static final class PartitionRange extends AbstractFunction1<Object, Object> implements Serializable {
    private static final long serialVersionUID = 1L;
    private final int first;
    private final int end;

    PartitionRange(int first, int end) {
      this.first = first;
      this.end = end;
    }

    @Override
    public Object apply(Object partition) {
      int index = (Integer) partition;
      return index >= first && index < end;
    }
  }

  private ParseResult parse(List<EventLogSource> sources, Redactor redactor) {
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    List<List<EventLogSource>> groups = ParseGroups.plan(sources, jsc.defaultParallelism());
    jsc.setJobDescription("PerfLab ingest: parse " + sources.size() + " event logs in " + groups.size()
        + " tasks");
    SerializableConfiguration conf = new SerializableConfiguration(jsc.hadoopConfiguration());
    long bytes = sources.stream().mapToLong(EventLogSource::bytes).sum();
    int files = (int) Math.max(1, Math.min(jsc.defaultParallelism(), bytes / LOG_BYTES_PER_WRITTEN_FILE + 1));
    TablePartitioner layout = new TablePartitioner(files);
    LongAccumulator[] counters = new LongAccumulator[Table.values().length];
    for (Table table : Table.values()) {
      counters[table.ordinal()] = jsc.sc().longAccumulator("rows " + table.tableName());
    }
    JavaPairRDD<Integer, Row> rows = jsc.parallelize(groups, Math.max(1, groups.size()))
        .flatMapToPair(new ParseLogs(jsc.broadcast(conf), redactor, layout, counters))
        .partitionBy(layout);
    Set<String> logIds = new HashSet<>();
    sources.forEach(source -> logIds.add(source.logId()));
    ParseResult parsed = new ParseResult(spark, rows, layout, List.of(), logIds, Map.of());
    List<Row> statusRows = parsed.table(Table.INGEST_STATUS).collectAsList();
    Map<String, Long> counts = new TreeMap<>();
    for (Table table : Table.values()) {
      if (counters[table.ordinal()].sum() > 0) {
        counts.put(table.tableName(), counters[table.ordinal()].sum());
      }
    }
    return new ParseResult(spark, rows, layout, statusRows, logIds, counts);
  }

  /**
   * Finds the copies of application attempts to drop, among this run's logs and those of earlier runs: only earlier
   * logs of this run's application ids can compete, so only their rows are read. Earlier
   * copies that lose have their status rewritten as SKIPPED; their rows go in {@link #writeDataTables}.
   */
  private Map<String, String> supersede(
      ParseResult result, Map<String, PreviousLog> previous, Map<String, String> pathById, List<Row> statusRows) {
    List<Deduplication.Claim> claims = new ArrayList<>();
    result.table(Table.APPLICATIONS).collectAsList()
        .forEach(row -> claims.add(Deduplication.Claim.of(row)));
    Object[] appIds = claims.stream().map(Deduplication.Claim::appId).distinct().toArray();
    store.read(Table.APPLICATIONS).filter(apps -> appIds.length > 0).ifPresent(apps -> apps
        .where(functions.col(KeyColumns.APP_ID).isin(appIds))
        .select(KeyColumns.LOG_ID, KeyColumns.APP_ID, KeyColumns.APP_ATTEMPT_ID, "completed", "num_task_attempts",
            "end_time_ms")
        .collectAsList().stream()
        .map(Deduplication.Claim::of)
        .filter(claim -> !result.logIds().contains(claim.logId()))
        .forEach(claims::add));
    Map<String, String> losers = Deduplication.losers(claims);
    List<String> earlierLosers = losers.keySet().stream()
        .filter(logId -> previous.containsKey(logId) && !result.logIds().contains(logId)).toList();
    for (Row earlier : statusRowsOf(earlierLosers)) {
      String winner = losers.get(earlier.<String>getAs(KeyColumns.LOG_ID));
      statusRows.add(StatusRows.superseded(earlier, pathById.getOrDefault(winner, winner)));
    }
    return losers;
  }

  /** The whole {@code ingest_status} rows of these logs, in the table's column order. */
  private List<Row> statusRowsOf(List<String> logIds) {
    if (logIds.isEmpty()) {
      return List.of();
    }
    return store.read(Table.INGEST_STATUS).orElseThrow()
        .where(UnionRows.logId().isin(logIds.toArray())).collectAsList();
  }

  /**
   * The logs whose rows a commit must replace rather than append: this run's logs that earlier runs wrote (or may
   * have written, in {@code unfinished} runs), logs that lose to another copy, the logs that beat them, and logs of
   * unfinished runs that are gone from the inputs.
   */
  static Set<String> replacedLogs(Set<String> parsed, Set<String> committed, Set<String> unfinished,
      Map<String, String> losers) {
    Set<String> replaced = new HashSet<>();
    for (String logId : parsed) {
      if (committed.contains(logId) || unfinished.contains(logId)) {
        replaced.add(logId);
      }
    }
    for (String logId : unfinished) {
      if (!parsed.contains(logId) && !committed.contains(logId)) {
        replaced.add(logId);
      }
    }
    for (Map.Entry<String, String> loser : losers.entrySet()) {
      if (!parsed.contains(loser.getKey()) || committed.contains(loser.getKey())) {
        replaced.add(loser.getKey());
        if (parsed.contains(loser.getValue())) {
          replaced.add(loser.getValue());
        }
      }
    }
    return replaced;
  }

  /**
   * Commits every data table, {@link #WRITER_THREADS} tables at a time (their commits are independent): the rows of
   * replaced logs in one {@code replaceWhere} commit, the rest in one append. Returns the rows written per table.
   */
  private Map<String, Long> writeDataTables(ParseResult result, Map<String, String> losers, Set<String> replaced) {
    Map<String, Long> written = new LinkedHashMap<>();
    withAutoCompactionOff(() -> written.putAll(commitDataTables(result, losers, replaced)));
    return written;
  }

  /**
   * Runs {@code commits} with Delta's session switch for auto compaction ({@link DeltaSessions#AUTO_COMPACT_ENABLED},
   * which overrides the tables' {@code delta.autoOptimize.autoCompact}) off, unless the user set it: compacting after
   * an append rewrote every small file of the table, so that a run's cost grew with the archive; {@code maintain},
   * which the nightly runs right after ingest, bounds the files instead, and appends of ten runs add at most ten files
   * per table before it does.
   */
  private void withAutoCompactionOff(Runnable commits) {
    SessionConf.unlessSet(spark, Map.of(DeltaSessions.AUTO_COMPACT_ENABLED, "false"), () -> {
      commits.run();
      return null;
    });
  }

  private Map<String, Long> commitDataTables(ParseResult result, Map<String, String> losers, Set<String> replaced) {
    Set<String> appended = new HashSet<>(result.logIds());
    appended.removeAll(replaced);
    appended.removeAll(losers.keySet());
    Map<String, Long> written = new LinkedHashMap<>();
    ExecutorService writers = Executors.newFixedThreadPool(WRITER_THREADS);
    try {
      List<Future<?>> commits = new ArrayList<>();
      for (Table table : dataTables()) {
        if (table == Table.PROPERTY_SET_REFS) {
          // The sets first, so that no reader ever sees a reference to a set not yet committed.
          Map<String, Long> newSets = newPropertySets(result);
          written.put(Table.PROPERTY_SETS.tableName(), newSets.values().stream().mapToLong(Long::longValue).sum());
          commits.add(writers.submit(() -> {
            writePropertySets(result, newSets.keySet());
            writeTable(table, result.table(table), losers.keySet(), replaced, appended);
          }));
        } else {
          commits.add(writers.submit(
              () -> writeTable(table, result.table(table), losers.keySet(), replaced, appended)));
        }
        written.put(table.tableName(), result.rowsByTable().getOrDefault(table.tableName(), 0L));
      }
      for (Future<?> commit : commits) {
        Futures.await(commit::get, "commit tables"); // its failure becomes this thread's, unwrapped
      }
    } finally {
      writers.shutdownNow();
    }
    return written;
  }

  private void writeTable(Table table, Dataset<Row> tableRows, Set<String> losers, Set<String> replaced,
      Set<String> appended) {
    Dataset<Row> rows = tableRows;
    if (!losers.isEmpty()) {
      rows = rows.filter(functions.not(UnionRows.logId().isin(losers.toArray())));
    }
    if (!replaced.isEmpty()) {
      store.replaceLogs(table.tableName(), rows.filter(UnionRows.logId().isin(replaced.toArray())), replaced);
    }
    if (!appended.isEmpty()) {
      store.append(table.tableName(),
          replaced.isEmpty() ? rows : rows.filter(functions.not(UnionRows.logId().isin(replaced.toArray()))));
    }
    pause.at(TestPause.Point.BETWEEN_COMMITS);
  }

  /**
   * The property sets this run parsed that {@code property_sets} does not hold yet: rows by set id. The
   * run's distinct sets come from its references (a few hundred bytes per log), the stored ones from the table's
   * {@code set_id} column. Computed once per run, before the writes.
   */
  private Map<String, Long> newPropertySets(ParseResult result) {
    Map<String, Long> sets = new HashMap<>();
    result.table(Table.PROPERTY_SET_REFS).select("set_id", "num_rows").distinct().collectAsList()
        .forEach(row -> sets.put(row.getString(0), row.getLong(1)));
    if (!sets.isEmpty()) {
      store.read(Table.PROPERTY_SETS).ifPresent(stored -> stored.select("set_id")
          .where(functions.col("set_id").isin(sets.keySet().toArray())).distinct().collectAsList()
          .forEach(row -> sets.remove(row.getString(0))));
    }
    return sets;
  }

  /**
   * Appends the sets no earlier run stored, each once (the parse drops a group's repeats; this drops the groups'),
   * so a set is written by the first run that meets it and never again, whatever logs are re-ingested.
   */
  private void writePropertySets(ParseResult result, Set<String> newSets) {
    Dataset<Row> fresh = result.table(Table.PROPERTY_SETS)
        .where(functions.col("set_id").isin(newSets.toArray()))
        .dropDuplicates("set_id", "key").coalesce(1);
    store.append(Table.PROPERTY_SETS.tableName(), fresh);
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
    // Written with its references (writePropertySets): its rows are shared by logs, never replaced.
    tables.remove(Table.PROPERTY_SETS);
    return tables;
  }

  private static List<String> allTables() {
    return List.of(Table.values()).stream().map(Table::tableName).toList();
  }
}
