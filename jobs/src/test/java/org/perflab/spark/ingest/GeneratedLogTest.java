package org.perflab.spark.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerStageCompleted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.spark.storage.TableStore;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.table.Table;
import org.perflab.testing.HistoryServerComparison;
import org.perflab.testing.HistoryServerReplay;
import scala.Tuple2;

/**
 * A small Spark 4.1 application run in this JVM with event logging on (zstd, rolling), then ingested. Its tables
 * must agree with a listener that counted the same run, and with the History Server replaying the log.
 */
class GeneratedLogTest {
  private static final String AZURE_KEY = "azure-account-key-0123456789";
  private static final String PASSWORD = "pa55-w0rd-in-text";

  @TempDir static Path events;
  /** The tables, beside the logs and not under them (ingest reads the log directory recursively); deleted after. */
  @TempDir static Path tables;
  private static final Counts COUNTS = new Counts();
  private static String appId;

  /** What a listener attached to the run saw. */
  static final class Counts extends SparkListener {
    final AtomicLong jobs = new AtomicLong();
    final AtomicLong stagesCompleted = new AtomicLong();
    final AtomicLong taskEnds = new AtomicLong();
    final AtomicLong failedTasks = new AtomicLong();
    final AtomicLong runTimeMs = new AtomicLong();
    final AtomicLong shuffleWriteBytes = new AtomicLong();
    final AtomicLong shuffleReadRecords = new AtomicLong();

    @Override
    public void onJobStart(SparkListenerJobStart jobStart) {
      jobs.incrementAndGet();
    }

    @Override
    public void onStageCompleted(SparkListenerStageCompleted stageCompleted) {
      stagesCompleted.incrementAndGet();
    }

    @Override
    public void onTaskEnd(SparkListenerTaskEnd taskEnd) {
      taskEnds.incrementAndGet();
      if (!taskEnd.reason().toString().equals("Success")) {
        failedTasks.incrementAndGet();
      }
      if (taskEnd.taskMetrics() != null) {
        runTimeMs.addAndGet(taskEnd.taskMetrics().executorRunTime());
        shuffleWriteBytes.addAndGet(taskEnd.taskMetrics().shuffleWriteMetrics().bytesWritten());
        shuffleReadRecords.addAndGet(taskEnd.taskMetrics().shuffleReadMetrics().recordsRead());
      }
    }
  }

  @BeforeAll
  static void runApplicationWithEventLogging() {
    SparkSession.getActiveSession().foreach(session -> { session.stop(); return null; });
    SparkSession.getDefaultSession().foreach(session -> { session.stop(); return null; });
    SparkSession spark = org.perflab.spark.storage.DeltaSessions.builder("perflab-tests")
        .master("local[2,2]") // two task attempts, so one task can fail and be retried
        .appName("perflab-generated-log")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.eventLog.enabled", "true")
        .config("spark.eventLog.dir", events.toUri().toString())
        .config("spark.eventLog.compress", "true")
        .config("spark.eventLog.compression.codec", "zstd")
        .config("spark.eventLog.rolling.enabled", "true")
        .config("spark.sql.shuffle.partitions", "3")
        .config("spark.hadoop.fs.azure.account.key.acct.blob.core.windows.net", AZURE_KEY)
        .getOrCreate();
    spark.sparkContext().addSparkListener(COUNTS);
    appId = spark.sparkContext().applicationId();
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    jsc.setJobDescription("copy from jdbc:postgresql://db:5432/sales?user=etl&password=" + PASSWORD);
    List<Integer> numbers = IntStream.range(0, 2000).boxed().collect(Collectors.toList());
    JavaPairRDD<Integer, Integer> sums = jsc.parallelize(numbers, 4)
        .mapToPair(n -> new Tuple2<>(n % 10, n))
        .reduceByKey(Integer::sum);
    sums.collect();
    sums.count(); // reuses the shuffle: the new job's map stage is skipped
    jsc.parallelize(numbers, 3).map(n -> {
      if (TaskContext.get().partitionId() == 0 && TaskContext.get().attemptNumber() == 0) {
        throw new IllegalStateException("first attempt fails on purpose, password=" + PASSWORD);
      }
      return n;
    }).count();
    jsc.setJobDescription(null);
    Dataset<Row> grouped = spark.range(5000).groupBy(functions.col("id").mod(7)).count()
        .filter(functions.lit("password=" + PASSWORD).isNotNull());
    grouped.collect();
    spark.stop();
  }

  private static Path logDirectory() throws IOException {
    try (var files = Files.list(events)) {
      return files.filter(p -> p.getFileName().toString().startsWith("eventlog_v2_")).findFirst().orElseThrow();
    }
  }

  @Test
  void tablesAgreeWithAListenerThatCountedTheSameRun() throws IOException {
    SparkSession spark = SparkTestSession.get();
    Path output = tables.resolve("tables");
    IngestSummary summary = new Ingest(spark,
        new IngestOptions(List.of(events.toString()), output.toString(), false, Redactor.DEFAULT_PATTERN, 0),
        Clock.systemUTC()).run();
    TableStore store = new TableStore(spark, output.toString());
    Dataset<Row> tasks = store.read(Table.TASKS).orElseThrow();

    assertThat(summary.statusCounts()).containsEntry("OK", 1L);
    Row status = store.read(Table.INGEST_STATUS).orElseThrow().first();
    assertThat(status.<String>getAs("layout")).isEqualTo("ROLLING_DIRECTORY");
    assertThat(status.<String>getAs("codec")).isEqualTo("ZSTD");
    assertThat(status.<Boolean>getAs("tasks_reconciled")).isTrue();
    Row app = store.read(Table.APPLICATIONS).orElseThrow().first();
    assertThat(app.<String>getAs("app_id")).isEqualTo(appId);
    assertThat(app.<String>getAs("spark_version")).isEqualTo("4.1.0");
    assertThat(app.<Boolean>getAs("completed")).isTrue();
    assertThat(store.read(Table.JOBS).orElseThrow().count()).isEqualTo(COUNTS.jobs.get());
    assertThat(store.read(Table.STAGES).orElseThrow().filter("status in ('COMPLETE', 'FAILED')").count())
        .isEqualTo(COUNTS.stagesCompleted.get());
    assertThat(store.read(Table.STAGES).orElseThrow().filter("status = 'SKIPPED'").count())
        .isGreaterThanOrEqualTo(1);
    assertThat(tasks.count()).isEqualTo(COUNTS.taskEnds.get());
    assertThat(tasks.filter("status = 'FAILED'").count()).isEqualTo(COUNTS.failedTasks.get()).isEqualTo(1);
    assertThat(sum(tasks, "executor_run_time_ms")).isEqualTo(COUNTS.runTimeMs.get());
    assertThat(sum(tasks, "shuffle_write_bytes")).isEqualTo(COUNTS.shuffleWriteBytes.get()).isPositive();
    assertThat(sum(tasks, "shuffle_read_records")).isEqualTo(COUNTS.shuffleReadRecords.get()).isPositive();
    assertThat(store.read(Table.SQL_EXECUTIONS).orElseThrow().count()).isPositive();
    Row azure = store.read(Table.PROPERTIES).orElseThrow()
        .filter("key = 'spark.hadoop.fs.azure.account.key.acct.blob.core.windows.net'").first();
    assertThat(azure.<String>getAs("value")).isEqualTo("*********(redacted)");
  }

  @Test
  void secretsInDescriptionsFailuresAndPlansNeverReachParquet() throws IOException {
    Path output = tables.resolve("secrets");
    new Ingest(SparkTestSession.get(), new IngestOptions(List.of(events.toString()), output.toString(), false,
        Redactor.DEFAULT_PATTERN, 0), Clock.systemUTC()).run();
    TableStore store = new TableStore(SparkTestSession.get(), output.toString());

    assertThat(store.read(Table.JOBS).orElseThrow().filter("description like '%redacted%'").count()).isPositive();
    assertThat(store.read(Table.TASKS).orElseThrow().filter("failure_reason like '%redacted%'").count()).isOne();
    try (var files = Files.walk(output)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        assertThat(new String(Files.readAllBytes(file), java.nio.charset.StandardCharsets.ISO_8859_1))
            .as(file.toString()).doesNotContain(PASSWORD).doesNotContain(AZURE_KEY);
      }
    }
  }

  @Test
  void generatedLogMatchesTheHistoryServer() throws IOException {
    Path log = logDirectory();
    SparkSession spark = SparkTestSession.get();
    Path output = tables.resolve("hs");
    new Ingest(spark, new IngestOptions(List.of(log.toString()), output.toString(), false,
        Redactor.DEFAULT_PATTERN, 0), Clock.systemUTC()).run();
    TableStore store = new TableStore(spark, output.toString());

    List<String> differences = HistoryServerComparison.differences(HistoryServerReplay.replay(log.toString()),
        getters(store.read(Table.STAGES).orElseThrow()), getters(store.read(Table.EXECUTORS).orElseThrow()),
        getters(store.read(Table.JOBS).orElseThrow()));

    assertThat(differences).isEmpty();
  }

  private static long sum(Dataset<Row> rows, String column) {
    Row total = rows.agg(functions.sum(column)).first();
    return total.isNullAt(0) ? 0 : total.getLong(0);
  }

  private static List<Function<String, Object>> getters(Dataset<Row> rows) {
    List<Function<String, Object>> getters = new ArrayList<>();
    for (Row row : rows.collectAsList()) {
      getters.add(column -> row.get(row.fieldIndex(column)));
    }
    return getters;
  }
}
