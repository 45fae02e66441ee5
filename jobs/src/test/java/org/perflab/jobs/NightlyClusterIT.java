package org.perflab.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.spark.ingest.Ingest;
import org.perflab.spark.ingest.IngestOptions;
import org.perflab.spark.ingest.SparkTestSession;

/**
 * The nightly pipeline as it runs in production, on this machine: a standalone cluster (a Master and two Workers, each
 * its own JVM, {@code submit/local-cluster}) and a real HDFS (a NameNode and a DataNode, {@code submit/local-hdfs}).
 * The bundled sample logs are put into {@code hdfs://}, and {@code submit/nightly --master spark://...} runs every job
 * of the pipeline in one Spark application from {@code hdfs://} to {@code hdfs://}, with the dynamic-allocation
 * settings docs/operations.md gives, and its tables and report are checked against the same night on {@code local[2]}
 * (whose queries must touch only the tables each step declares, {@link NightTables}).
 * Then three faults, all in CI: the DataNode stopped during a night, the night's one driver killed in the middle of a
 * step, and a Worker killed during ingest. Around it all, the contract of {@code submit/local-cluster}
 * ({@link LocalClusterChecks}): recorded pids, an idempotent start, a status, and a stop that leaves no process behind.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NightlyClusterIT {
  private static final Path REPOSITORY = Scripts.repository();
  private static final String NIGHTLY = REPOSITORY.resolve("submit/nightly").toString();
  private static final String LOCAL_HDFS = REPOSITORY.resolve("submit/local-hdfs").toString();
  private static final Duration DAEMONS_TIMEOUT = Duration.ofMinutes(3);
  private static final Duration PIPELINE_TIMEOUT = Duration.ofMinutes(60);
  /**
   * The tables each job writes that hold rows for the bundled samples, for the jobs of this build. (Others may hold
   * none for ten small logs, such as stragglers or scaling fits; they must exist and be readable, see
   * {@link #MAY_BE_EMPTY}.)
   */
  private static final Map<String, List<String>> TABLES = Map.ofEntries(
      Map.entry("ingest", List.of("applications", "jobs", "stages", "tasks", "executors", "properties",
          "ingest_status")),
      Map.entry("features", List.of("workloads", "app_features", "stage_features")),
      Map.entry("stage-costs", List.of("stage_costs")),
      Map.entry("model", List.of("dag_models")),
      Map.entry("memory", List.of("memory_recommendations")),
      Map.entry("recommend", List.of("recommendations")),
      Map.entry("report", List.of("workload_history")));
  /**
   * Tables whose row counts on the cluster must equal those of the same night over the same logs on {@code local[2]}
   * (some may hold no rows for ten small logs; then both must hold none).
   */
  private static final Map<String, List<String>> SAME_COUNT_AS_LOCAL = Map.ofEntries(
      Map.entry("diagnose", List.of("stragglers", "findings")),
      Map.entry("cluster", List.of("app_clusters")),
      Map.entry("scaling", List.of("scaling_fits")),
      Map.entry("evaluate", List.of("prediction_eval", "prediction_eval_summary")),
      Map.entry("sweep", List.of("sweep_results", "sweep_best")),
      Map.entry("recommend", List.of("recommendations")));
  /**
   * docs/operations.md's settings that hand executors back between the night's steps, as documented: an executor idle
   * for 60 s is handed back. (A shorter timeout over ten small logs handed them back between most steps, and every
   * step paid two cold executor JVMs on the test's 2 cores.)
   */
  private static final List<String> DYNAMIC_ALLOCATION = List.of("spark.dynamicAllocation.enabled=true",
      "spark.dynamicAllocation.shuffleTracking.enabled=true", "spark.dynamicAllocation.minExecutors=0",
      "spark.dynamicAllocation.executorIdleTimeout=60s");
  private static final java.util.regex.Pattern LINK = java.util.regex.Pattern.compile("<a href=\"([^\"]+)\">([^<]*)</a>");
  /**
   * HDFS client settings that make a lost DataNode fail a read or write in seconds rather than minutes, and Spark give
   * up on the first task failure.
   */
  private static final List<String> FAIL_FAST = List.of(
      "spark.hadoop.dfs.client.max.block.acquire.failures=0", "spark.hadoop.dfs.client.retry.window.base=50",
      "spark.hadoop.dfs.client.socket-timeout=3000", "spark.hadoop.ipc.client.connect.max.retries=0",
      "spark.hadoop.ipc.client.connect.timeout=1000", "spark.hadoop.dfs.client.block.write.retries=0",
      "spark.task.maxFailures=1");

  /** Drivers and executors that live a minute or two on ten small logs: {@link Scripts#JIT_FOR_SHORT_JVMS}. */
  private static final String SHORT_LIVED_DRIVER = "spark.driver.extraJavaOptions=" + Scripts.JIT_FOR_SHORT_JVMS;
  private static final String SHORT_LIVED_EXECUTORS = "spark.executor.extraJavaOptions=" + Scripts.JIT_FOR_SHORT_JVMS;
  /** Tables of a few hundred rows: interpreted expressions, no generated code to compile (docs/operations.md). */
  private static final List<String> SMALL_DATA_SQL = SparkTestSession.SMALL_DATA_SQL.entrySet().stream()
      .flatMap(setting -> java.util.stream.Stream.of("--conf", setting.getKey() + "=" + setting.getValue())).toList();

  @TempDir static Path temp;
  private static String hdfs;
  private static String master;
  private static FileSystem fs;

  @BeforeAll
  static void startHdfsAndCluster() throws Exception {
    // HDFS starts while the cluster starts: each start waits much of its time for daemons to register.
    CompletableFuture<Scripts.Result> startingHdfs = CompletableFuture.supplyAsync(() -> {
      try {
        return Scripts.run(temp, Map.of(), DAEMONS_TIMEOUT, LOCAL_HDFS, "start", "--state-dir",
            temp.resolve("hdfs").toString());
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    });
    Scripts.Result cluster;
    try {
      cluster = LocalClusterChecks.localCluster(Map.of("SPARK_DAEMON_MEMORY", "256m"), "start",
          "--state-dir", temp.resolve("cluster").toString(), "--workers", "2", "--worker-cores", "1",
          "--worker-memory", "1536m");
    } finally {
      startingHdfs.handle((result, failure) -> result).join(); // ended either way before @AfterAll stops it
    }
    Scripts.Result started = startingHdfs.get();
    assertThat(started.exitCode()).as(started.output()).isZero();
    hdfs = started.lastLine();
    assertThat(hdfs).startsWith("hdfs://127.0.0.1:");
    assertThat(cluster.exitCode()).as(cluster.output()).isZero();
    master = cluster.lastLine();
    LocalClusterChecks.assertRunning(temp.resolve("cluster"), master, 2, 1);
    fs = FileSystem.get(URI.create(hdfs), new Configuration());
    fs.copyFromLocalFile(new org.apache.hadoop.fs.Path(REPOSITORY.resolve("samples/spark-events").toUri()),
        new org.apache.hadoop.fs.Path(hdfs + "/logs"));
  }

  @AfterAll
  static void stopEverything() throws Exception {
    try {
      LocalClusterChecks.stopAndAssertGone(temp.resolve("cluster"));
    } finally {
      Scripts.run(temp, Map.of(), DAEMONS_TIMEOUT, LOCAL_HDFS, "stop", "--state-dir", temp.resolve("hdfs").toString());
    }
  }

  @Test
  @Order(1)
  void everyJobOfThePipelineRunsOnTheClusterFromHdfsToHdfs() throws Exception {
    String output = hdfs + "/perflab";
    // The same night over the same logs in this JVM's local[2] session gives the counts the cluster must reproduce.
    // It runs while the cluster's night runs: that night waits on executors and HDFS much of its time.
    Path local = temp.resolve("local-night");
    SparkSession spark = SparkTestSession.get();
    // Then a second night over the same logs: nothing new, so every step that reads only the root's tables is not
    // rerun (ingest, maintain and report are).
    String[] localNightArguments = {"nightly", "--archive", REPOSITORY.resolve("samples/spark-events").toString(),
        "--output", local.toString()};
    // The first night's queries are recorded: every table a step touches must be one it declares (NightTables).
    NightTables[] firstNight = new NightTables[1];
    CompletableFuture<List<Integer>> localNights = CompletableFuture.supplyAsync(() -> {
      NightTables.Recorded first = NightTables.record(spark, () -> PerfLab.run(localNightArguments));
      firstNight[0] = first.seen();
      return first.exitCode() == 0 ? List.of(0, PerfLab.run(localNightArguments)) : List.of(first.exitCode());
    });
    List<String> command = nightlyCommand(output, DYNAMIC_ALLOCATION);
    Scripts.Result night = Scripts.run(temp, Map.of(), PIPELINE_TIMEOUT, command.toArray(String[]::new));
    // Each step's seconds, kept in failsafe's output file for whoever tunes this test's time.
    String stdout = night.stdout();
    System.out.println(stdout.substring(Math.max(0, stdout.indexOf("nightly summary"))));

    assertThat(night.exitCode()).as(night.output()).isZero();
    Set<String> registered = PerfLab.commandLine().getSubcommands().keySet();
    List<String> ran = new ArrayList<>();
    for (String job : org.perflab.jobs.nightly.Pipeline.jobs()) {
      if (registered.contains(job)) {
        assertThat(night.stdout()).as(night.output()).containsPattern("(?m)^" + job + " +exit +0 ");
        ran.add(job);
      }
    }
    assertThat(night.stderr()).contains("step 1 of " + ran.size() + ": ingest started")
        .contains("step " + ran.size() + " of " + ran.size() + ": " + ran.get(ran.size() - 1) + " ended: exit 0");
    assertThat(fs.exists(new org.apache.hadoop.fs.Path(output + "/_perflab_nightly_lock"))).isFalse();
    assertThat(fs.exists(new org.apache.hadoop.fs.Path(output + "/_perflab_lock"))).isFalse();

    long logs = Files.list(REPOSITORY.resolve("samples/spark-events")).count();
    Dataset<Row> status = spark.read().format("delta").load(output + "/ingest_status");
    assertThat(status.where("status = 'OK'").count()).isEqualTo(logs);
    assertThat(spark.read().format("delta").load(output + "/applications").count()).isEqualTo(logs);
    assertThat(localNights.get(PIPELINE_TIMEOUT.toMinutes(), TimeUnit.MINUTES)).as("two nights on local[2]")
        .containsExactly(0, 0);
    String firstRun = assertSecondNightReranOnlyWhatReadsOutsideTheTables(spark, local);
    firstNight[0].assertDeclaredAndTwoAtATime(spark, local, firstRun);
    for (String job : ran) {
      for (String table : TABLES.getOrDefault(job, List.of())) {
        assertThat(spark.read().format("delta").load(output + "/" + table).count())
            .as("rows of " + table + " (written by " + job + ")").isPositive();
      }
      for (String table : SAME_COUNT_AS_LOCAL.getOrDefault(job, List.of())) {
        assertThat(spark.read().format("delta").load(output + "/" + table).count())
            .as("rows of " + table + " (written by " + job + ") on the cluster and on local[2]")
            .isEqualTo(spark.read().format("delta").load(local.resolve(table).toString()).count());
      }
    }
    if (registered.contains("report")) {
      assertEveryLinkedPageNamesItsSubject(output + "/report/");
    }
    assertExecutorsStartedLikeTheDriver(temp.resolve("cluster/work"));
  }

  /**
   * The night's executors ran on this machine with the driver's class-data archive and a JIT of C1 only, which
   * {@code submit/perflab} gives the executors of a standalone master on 127.0.0.1 ({@code local_executors}): each
   * Worker writes the executor's java command at the top of its stderr, under the Worker's work directory. (This
   * test's {@link #SHORT_LIVED_EXECUTORS} ask for C1 only as well: the launcher's is the second.)
   */
  private static void assertExecutorsStartedLikeTheDriver(Path workers) throws IOException {
    List<String> commands;
    try (var files = Files.walk(workers)) {
      commands = files.filter(file -> file.getFileName().toString().equals("stderr")).map(file -> {
        try (var lines = Files.lines(file, StandardCharsets.UTF_8)) {
          return lines.filter(line -> line.startsWith("Spark Executor Command:")).findFirst().orElse("");
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }).toList();
    }
    assertThat(commands).as("the executors' commands under " + workers).isNotEmpty()
        .allSatisfy(command -> assertThat(command).contains("-XX:SharedArchiveFile=")
            .satisfies(line -> assertThat(line.split("-XX:TieredStopAtLevel=1", -1)).hasSize(3)));
  }

  /**
   * The second of two nights over the same logs ran ingest, maintain and report, and said of every other step that it
   * was unchanged since the first night, which it names.
   *
   * @return the first night's run id
   */
  private static String assertSecondNightReranOnlyWhatReadsOutsideTheTables(SparkSession spark, Path root) {
    List<Row> nights = spark.read().format("delta").load(root.resolve("nightly_runs").toString())
        .select("run_id").distinct().orderBy("run_id").collectAsList();
    assertThat(nights).hasSize(2);
    String first = nights.get(0).getString(0);
    List<Row> second = spark.read().format("delta").load(root.resolve("nightly_runs").toString())
        .where(functions.col("run_id").equalTo(nights.get(1).getString(0))).collectAsList();
    assertThat(second).hasSize(org.perflab.jobs.nightly.Pipeline.jobs().size()).allSatisfy(step -> {
      assertThat(step.<Integer>getAs("exit_code")).as(step.<String>getAs("step")).isZero();
      String message = step.getAs("message");
      if (Set.of("ingest", "maintain", "report").contains(step.<String>getAs("step"))) {
        assertThat(message).as(step.<String>getAs("step")).doesNotStartWith("unchanged");
      } else {
        assertThat(message).as(step.<String>getAs("step")).startsWith("unchanged since night " + first + ":");
      }
    });
    return first;
  }

  /**
   * Every page the report's overview links to exists; a page linked from a table cell (an application or a workload)
   * names the application or workload its link reads.
   */
  private static void assertEveryLinkedPageNamesItsSubject(String report) throws IOException {
    String html = readHdfs(report + "index.html");
    assertThat(html).contains("Content-Security-Policy");
    java.util.regex.Matcher links = LINK.matcher(html);
    int subjects = 0;
    while (links.find()) {
      String href = unescape(links.group(1));
      if (href.contains("://") || href.startsWith("#")) {
        continue;
      }
      String page = readHdfs(report + href);
      String name = unescape(links.group(2)).strip();
      if (!href.matches("(index|applications-\\d+|workloads-\\d+)\\.html") && !name.isEmpty()) {
        assertThat(unescape(page)).as("the page " + href + " linked from the overview as " + name).contains(name);
        subjects++;
      }
    }
    assertThat(subjects).as("application and workload pages linked from the overview").isPositive();
  }

  private static String readHdfs(String file) throws IOException {
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(file);
    assertThat(fs.exists(path)).as(file).isTrue();
    try (var in = fs.open(path)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static String unescape(String html) {
    return html.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'")
        .replace("&#x27;", "'").replace("&amp;", "&");
  }

  /**
   * The DataNode stopped while {@code features} reads and writes: the step exits 1 naming HDFS, and the steps that
   * need its tables are skipped. After the DataNode is restarted, the next nightly completes the work. The dependent
   * step is {@code regressions}, the cheapest that reads what {@code features} writes (a few seconds; diagnose took a
   * minute or more on the test's two cores, for nothing this test checks).
   */
  @Test
  @Order(2)
  void aDataNodeStoppedDuringARunFailsTheStepNamingHdfsAndTheNextRunCompletes() throws Exception {
    String output = hdfs + "/perflab";
    Path stderr = temp.resolve("datanode-night.err");
    List<String> command = nightlyCommand(output, FAIL_FAST);
    command.addAll(List.of("--jobs", "features,regressions", "--full"));
    Process night = new ProcessBuilder(command).directory(temp.toFile())
        .redirectOutput(temp.resolve("datanode-night.out").toFile()).redirectError(stderr.toFile()).start();
    boolean stoppedDataNode = false;
    try {
      // No pause: in one application, features over ten logs may take only seconds; stopped at its start, the
      // DataNode is gone before features has read and written its tables.
      waitFor(stderr, "step 1 of 2: features started", Duration.ofMinutes(5));
      Scripts.Result stopped = Scripts.run(temp, Map.of(), DAEMONS_TIMEOUT, LOCAL_HDFS, "stop", "--only", "datanode",
          "--state-dir", temp.resolve("hdfs").toString());
      assertThat(stopped.exitCode()).as(stopped.output()).isZero();
      stoppedDataNode = true;
      assertThat(night.waitFor(10, TimeUnit.MINUTES)).as("the nightly ends without its DataNode").isTrue();
    } finally {
      night.descendants().forEach(ProcessHandle::destroyForcibly);
      night.destroyForcibly();
      if (stoppedDataNode) {
        // Whatever the night did, the later faults need HDFS whole again.
        Scripts.Result restarted = Scripts.run(temp, Map.of(), DAEMONS_TIMEOUT, LOCAL_HDFS, "start", "--state-dir",
            temp.resolve("hdfs").toString());
        assertThat(restarted.exitCode()).as(restarted.output()).isZero();
        assertThat(restarted.lastLine()).isEqualTo(hdfs);
      }
    }
    String errors = Files.readString(stderr, StandardCharsets.UTF_8);
    assertThat(night.exitValue()).as(errors).isEqualTo(1);
    assertThat(errors).contains("Cannot run features: HDFS failed: ")
        .contains("check that the NameNode and the DataNodes are up")
        .contains("step 2 of 2: regressions skipped: it reads what features writes, and features failed");

    Scripts.Result next = nightly(output, List.of("--jobs", "features,regressions", "--full"));
    assertThat(next.exitCode()).as(next.output()).isZero();
    assertThat(next.stdout()).containsPattern("(?m)^features +exit +0 ").containsPattern("(?m)^regressions +exit +0 ");
    SparkSession spark = SparkTestSession.get();
    assertThat(spark.read().format("delta").load(output + "/app_features").count())
        .isEqualTo(spark.read().format("delta").load(output + "/applications").count());
  }

  /**
   * The one driver of a {@code perflab nightly} SIGKILLed while its {@code features} step runs Spark jobs: the night
   * ends without finishing features. The next nightly (which takes over the dead driver's lock) completes the work:
   * the tables equal those of the clean night of the first test.
   */
  @Test
  @Order(3)
  void aDriverKilledMidNightIsCompletedByTheNextNightly() throws Exception {
    String output = hdfs + "/driver-killed";
    Path stderr = temp.resolve("driver-night.err");
    Path logs = Files.createDirectories(temp.resolve("driver-night-logs"));
    List<String> command = nightlyCommand(output, List.of());
    command.addAll(List.of("--jobs", "ingest,features"));
    ProcessBuilder builder = new ProcessBuilder(command).directory(temp.toFile())
        .redirectOutput(temp.resolve("driver-night.out").toFile()).redirectError(stderr.toFile());
    builder.environment().put("PERFLAB_LOG_DIR", logs.toString());
    Process night = builder.start();
    try {
      ProcessHandle driver = waitForDescendant(night, "nightly", Duration.ofMinutes(5));
      waitFor(stderr, "step 2 of 2: features started", Duration.ofMinutes(10));
      Path driverLog;
      try (var files = Files.list(logs)) {
        driverLog = files.filter(f -> f.getFileName().toString().contains("nightly")).findFirst().orElseThrow();
      }
      long jobsBefore = sparkJobsStarted(driverLog);
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
      while (sparkJobsStarted(driverLog) == jobsBefore) {
        assertThat(System.nanoTime()).as("a Spark job of features").isLessThan(deadline);
        Thread.sleep(50);
      }
      assertThat(driver.isAlive()).as("the driver is running features when it is killed").isTrue();
      driver.destroyForcibly();
      assertThat(night.waitFor(5, TimeUnit.MINUTES)).as("the nightly ends with its driver").isTrue();
    } finally {
      night.descendants().forEach(ProcessHandle::destroyForcibly);
      night.destroyForcibly();
    }
    String errors = Files.readString(stderr, StandardCharsets.UTF_8);
    assertThat(night.exitValue()).as(errors).isNotZero();
    assertThat(errors).contains("step 1 of 2: ingest ended: exit 0").doesNotContain("features ended");

    Scripts.Result next = nightly(output, List.of("--jobs", "ingest,features"));
    assertThat(next.exitCode()).as(next.output()).isZero();
    SparkSession spark = SparkTestSession.get();
    for (String table : List.of("applications", "tasks", "workloads", "app_features", "stage_features")) {
      SameRows.assertSame(table, spark.read().format("delta").load(hdfs + "/perflab/" + table),
          spark.read().format("delta").load(output + "/" + table));
    }
  }

  /** The Spark jobs the driver's log file says have started so far (DAGScheduler's "Got job" lines). */
  private static long sparkJobsStarted(Path driverLog) throws IOException {
    try (var lines = Files.lines(driverLog, StandardCharsets.ISO_8859_1)) {
      return lines.filter(line -> line.contains("DAGScheduler: Got job ")).count();
    }
  }

  /**
   * A Worker JVM SIGKILLed while {@code ingest} runs tasks on it: Spark reruns them on the other Worker, the run
   * succeeds, and its tables equal those of a run without the kill. Last, as it leaves the cluster one Worker short.
   */
  @Test
  @Order(4)
  void aWorkerKilledDuringIngestLeavesTheSameTablesAsACleanRun() throws Exception {
    Path local = Files.createDirectories(temp.resolve("archive"));
    org.perflab.jobs.bench.ArchiveBuilder.of(local).add(0, 60);
    fs.copyFromLocalFile(new org.apache.hadoop.fs.Path(local.toUri()), new org.apache.hadoop.fs.Path(hdfs + "/big"));

    Path logs = Files.createDirectories(temp.resolve("worker-kill-logs"));
    ProcessBuilder builder = new ProcessBuilder(ingestCommand(hdfs + "/killed")).directory(temp.toFile())
        .redirectOutput(temp.resolve("worker-kill.out").toFile())
        .redirectError(temp.resolve("worker-kill.err").toFile());
    builder.environment().remove("SPARK_HOME");
    builder.environment().put("PERFLAB_LOG_DIR", logs.toString());
    Process run = builder.start();
    long workerPid = Long.parseLong(Files.readString(temp.resolve("cluster/worker-2.pid")).trim().split(" ")[0]);
    ProcessHandle worker = ProcessHandle.of(workerPid).orElseThrow();
    try {
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
      while (worker.children().noneMatch(p -> p.info().commandLine().orElse("").contains("Executor"))) {
        assertThat(run.isAlive()).as("ingest ended before an executor started on worker-2").isTrue();
        assertThat(System.nanoTime()).as("an executor on worker-2").isLessThan(deadline);
        Thread.sleep(100);
      }
      Thread.sleep(4000); // its tasks are parsing logs
      worker.destroyForcibly();
      // The run without the kill: the same ingest in this JVM's local[2] session, into the same HDFS. (A third
      // cluster submit would cost a driver and two cold executors more; the tables must not depend on where the tasks
      // ran.) It runs while the cluster, one Worker short, finishes on one core, so it leaves the kill's timing alone.
      new Ingest(SparkTestSession.get(), new IngestOptions(List.of(hdfs + "/big"), hdfs + "/clean", false,
          Redactor.DEFAULT_PATTERN, 0), Clock.systemUTC()).run();
      assertThat(run.waitFor(15, TimeUnit.MINUTES)).isTrue();
    } finally {
      run.descendants().forEach(ProcessHandle::destroyForcibly);
      run.destroyForcibly();
    }
    assertThat(run.exitValue()).as(Files.readString(temp.resolve("worker-kill.err"))).isZero();
    String driverLog;
    try (var files = Files.list(logs)) {
      driverLog = Files.readString(files.filter(f -> f.getFileName().toString().contains("ingest")).findFirst()
          .orElseThrow());
    }
    assertThat(driverLog).containsPattern("(?i)(lost executor|executor \\S+ removed)");

    SparkSession spark = SparkTestSession.get();
    for (org.perflab.table.Table table : org.perflab.table.Table.values()) {
      SameRows.assertSame(table.tableName(), spark.read().format("delta").load(hdfs + "/clean/" + table.tableName()),
          spark.read().format("delta").load(hdfs + "/killed/" + table.tableName()));
    }
  }

  private static List<String> ingestCommand(String output) {
    List<String> command = new ArrayList<>(List.of(REPOSITORY.resolve("submit/perflab").toString(), "--master",
        master, "--conf", "spark.driver.host=127.0.0.1", "--conf", "spark.ui.enabled=false",
        "--conf", "spark.executor.memory=1g", "--conf", "spark.executor.cores=1",
        "--conf", SHORT_LIVED_DRIVER, "--conf", SHORT_LIVED_EXECUTORS));
    command.addAll(SMALL_DATA_SQL);
    command.addAll(List.of("ingest", "--input", hdfs + "/big", "--output", output));
    return command;
  }

  /** The first descendant of {@code parent} whose command line runs SparkSubmit for {@code job}. */
  private static ProcessHandle waitForDescendant(Process parent, String job, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      var found = parent.descendants().filter(p -> {
        String line = p.info().commandLine().orElse("");
        // The driver JVM, not the short-lived launcher JVM that builds its command line (which names SparkSubmit too).
        return line.contains("org.apache.spark.deploy.SparkSubmit") && !line.contains("org.apache.spark.launcher.Main")
            && line.contains(" " + job + " ");
      }).findFirst();
      if (found.isPresent()) {
        return found.get();
      }
      Thread.sleep(100);
    }
    throw new AssertionError("No driver of " + job + " within " + timeout);
  }

  private static Scripts.Result nightly(String output, List<String> more) throws IOException, InterruptedException {
    List<String> command = nightlyCommand(output, List.of());
    command.addAll(more);
    return Scripts.run(temp, Map.of(), PIPELINE_TIMEOUT, command.toArray(String[]::new));
  }

  private static List<String> nightlyCommand(String output, List<String> confs) {
    List<String> command = new ArrayList<>(List.of(NIGHTLY, "--archive", hdfs + "/logs", "--output", output,
        "--master", master, "--conf", "spark.driver.host=127.0.0.1", "--conf", "spark.ui.enabled=false",
        "--conf", "spark.executor.memory=1g", "--conf", "spark.executor.cores=1",
        // Ten small logs: a few partitions for shuffles and Delta's snapshot state, not 200 and 50.
        "--conf", "spark.sql.shuffle.partitions=4", "--conf", "spark.databricks.delta.snapshotPartitions=2",
        "--conf", SHORT_LIVED_DRIVER, "--conf", SHORT_LIVED_EXECUTORS));
    command.addAll(SMALL_DATA_SQL);
    for (String conf : confs) {
      command.addAll(List.of("--conf", conf));
    }
    return command;
  }

  private static void waitFor(Path file, String text, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (Files.exists(file) && Files.readString(file, StandardCharsets.UTF_8).contains(text)) {
        return;
      }
      Thread.sleep(200);
    }
    throw new AssertionError("No \"" + text + "\" in " + file + " within " + timeout);
  }
}
