package org.perflab.spark.ingest;

import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
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
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.util.SerializableConfiguration;
import org.perflab.errors.BadInputException;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.eventlog.source.Discovery;
import org.perflab.eventlog.source.EventLogSource;
import org.perflab.eventlog.source.LogDiscovery;
import org.perflab.eventlog.source.SkippedFile;
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
    Map<String, Long> rowsByTable = writeDataTables(result, losers, replaced);
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
    store.replaceLogs(Table.INGEST_STATUS.tableName(),
        spark.createDataFrame(stamped, Table.INGEST_STATUS.schema()).coalesce(1), statusLogs);
    rowsByTable.put(Table.INGEST_STATUS.tableName(), (long) stamped.size());
    pendingRuns.finish(journals);
    result.persisted().unpersist(false);
    timer.end("commit status");
    return new IngestSummary(runId, discovery.logs().size(), plan.toParse().size(), plan.unchanged(),
        plan.tooRecent(), discovery.skipped().size(), losers.size(), StatusRows.countByStatus(stamped),
        rowsByTable, timer.phases(), store.fileSystem().makeQualified(store.root()).toString());
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

  private Map<String, PreviousLog> previousLogs() {
    Map<String, PreviousLog> previous = new HashMap<>();
    store.read(Table.INGEST_STATUS).ifPresent(status -> status.collectAsList()
        .forEach(row -> previous.put(row.getAs(KeyColumns.LOG_ID), PreviousLog.of(row))));
    return previous;
  }

  /**
   * The rows of every parsed log, keyed by table and persisted on disk, so that each table is selected out of one
   * parse; {@link #table} makes one table's DataFrame, in as many partitions as its written files should number.
   */
  private record ParseResult(SparkSession spark, JavaPairRDD<Integer, Row> persisted, int files, List<Row> statusRows,
      Set<String> logIds, Map<String, Long> rowsByTable) {

    Dataset<Row> table(Table table) {
      int ordinal = table.ordinal();
      JavaRDD<Row> rows = persisted.filter(pair -> pair._1() == ordinal).values().coalesce(files);
      return spark.createDataFrame(rows, table.schema());
    }
  }

  private ParseResult parse(List<EventLogSource> sources, Redactor redactor) {
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    List<List<EventLogSource>> groups = ParseGroups.plan(sources, jsc.defaultParallelism());
    jsc.setJobGroup("perflab-ingest", "PerfLab ingest: parse " + sources.size() + " event logs in " + groups.size()
        + " tasks", false);
    SerializableConfiguration conf = new SerializableConfiguration(jsc.hadoopConfiguration());
    JavaPairRDD<Integer, Row> rows = jsc.parallelize(groups, Math.max(1, groups.size()))
        .flatMapToPair(new ParseLogs(jsc.broadcast(conf), redactor))
        .persist(StorageLevel.DISK_ONLY());
    Map<String, Long> counts = new TreeMap<>();
    rows.countByKey().forEach((ordinal, count) -> counts.put(Table.values()[ordinal].tableName(), count));
    Set<String> logIds = new HashSet<>();
    sources.forEach(source -> logIds.add(source.logId()));
    long bytes = sources.stream().mapToLong(EventLogSource::bytes).sum();
    int files = (int) Math.max(1, Math.min(jsc.defaultParallelism(), bytes / LOG_BYTES_PER_WRITTEN_FILE + 1));
    ParseResult parsed = new ParseResult(spark, rows, files, List.of(), logIds, counts);
    List<Row> statusRows = parsed.table(Table.INGEST_STATUS).collectAsList();
    return new ParseResult(spark, rows, files, statusRows, logIds, counts);
  }

  /**
   * Finds the copies of application attempts to drop, among this run's logs and those of earlier runs. Earlier
   * copies that lose have their status rewritten as SKIPPED; their rows go in {@link #writeDataTables}.
   */
  private Map<String, String> supersede(
      ParseResult result, Map<String, PreviousLog> previous, Map<String, String> pathById, List<Row> statusRows) {
    List<Deduplication.Claim> claims = new ArrayList<>();
    result.table(Table.APPLICATIONS).collectAsList()
        .forEach(row -> claims.add(Deduplication.Claim.of(row)));
    store.read(Table.APPLICATIONS).ifPresent(apps -> apps
        .select(KeyColumns.LOG_ID, KeyColumns.APP_ID, KeyColumns.APP_ATTEMPT_ID, "completed", "num_task_attempts",
            "end_time_ms")
        .collectAsList().stream()
        .map(Deduplication.Claim::of)
        .filter(claim -> !result.logIds().contains(claim.logId()))
        .forEach(claims::add));
    Map<String, String> losers = Deduplication.losers(claims);
    for (Map.Entry<String, String> loser : losers.entrySet()) {
      PreviousLog earlier = previous.get(loser.getKey());
      if (earlier != null && !result.logIds().contains(loser.getKey())) {
        String winnerPath = pathById.getOrDefault(loser.getValue(), loser.getValue());
        statusRows.add(StatusRows.superseded(earlier.row(), winnerPath));
      }
    }
    return losers;
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
    Set<String> appended = new HashSet<>(result.logIds());
    appended.removeAll(replaced);
    appended.removeAll(losers.keySet());
    Map<String, Long> written = new LinkedHashMap<>();
    ExecutorService writers = Executors.newFixedThreadPool(WRITER_THREADS);
    try {
      List<Future<?>> commits = new ArrayList<>();
      for (Table table : dataTables()) {
        commits.add(writers.submit(() -> writeTable(table, result.table(table), losers.keySet(), replaced, appended)));
        written.put(table.tableName(), result.rowsByTable().getOrDefault(table.tableName(), 0L));
      }
      for (Future<?> commit : commits) {
        await(commit);
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

  /** Waits for a table's commit; its failure becomes this thread's, unwrapped. */
  private static void await(Future<?> commit) {
    try {
      commit.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Cannot commit tables: interrupted", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new IllegalStateException("Cannot commit tables: " + e.getCause().getMessage(), e.getCause());
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

  private static List<String> allTables() {
    return List.of(Table.values()).stream().map(Table::tableName).toList();
  }
}
