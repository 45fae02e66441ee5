package org.perflab.plugin;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.SparkContext$;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.memory.gc.BlockEvent;
import org.perflab.memory.gc.GcObservation;
import org.perflab.memory.gc.GcRun;
import org.perflab.memory.gc.Telemetry;
import org.perflab.memory.gc.TelemetryReader;

/**
 * The plugin on local[2] with the event log on: a cached job that allocates garbage and asks for one full collection
 * leaves a telemetry directory beside the event log that the reader parses into collections, block events and tasks,
 * with nothing counted as a problem and no configuration value written.
 */
class MemoryTelemetryPluginTest {
  private static final String SECRET = "perflab-secret-value-1234";
  /** Extra passes of 2 GB of garbage at most, when the first 8 GB gave too few young collections. */
  private static final int MAX_EXTRA_ROUNDS = 10;

  @TempDir
  static Path events;

  private static Telemetry telemetry;
  private static Path telemetryDir;

  @BeforeAll
  static void runACachedJobWithThePlugin() throws Exception {
    // spark.plugins takes effect when a context starts, so a context other test classes left active is stopped
    SparkContext$.MODULE$.getActive().foreach(sc -> {
      sc.stop();
      return null;
    });
    SparkSession.clearActiveSession();
    SparkSession.clearDefaultSession();
    SparkSession spark = SparkSession.builder().master("local[2]").appName("MemoryTelemetryPluginTest")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
        .config("spark.plugins", MemoryTelemetryPlugin.class.getName())
        .config("spark.eventLog.enabled", "true").config("spark.eventLog.dir", events.toUri().toString())
        .config("spark.perflab.test.password", SECRET).getOrCreate();
    String appId = spark.sparkContext().applicationId();
    try {
      JavaRDD<long[]> cached = JavaSparkContext.fromSparkContext(spark.sparkContext())
          .parallelize(IntStream.range(0, 2000).boxed().toList(), 4)
          .map(i -> {
            long[] kept = new long[128];
            // About 8 GB allocated in all: several young collections even with a large young generation.
            for (int k = 0; k < 64; k++) {
              kept[k % 128] += new byte[64 << 10].length;
            }
            return kept;
          })
          .persist(StorageLevel.MEMORY_ONLY());
      long youngBefore = youngCollections();
      assertThat(cached.count()).isEqualTo(2000);
      assertThat(cached.map(a -> a[0]).reduce(Long::sum)).isPositive();
      // The GC model needs 3 young collections; how many 8 GB gives depends on the young generation G1 chose, so
      // allocate more until the JVM has seen 4 (one spare for a collection before the plugin's listener started)
      for (int round = 0; round < MAX_EXTRA_ROUNDS && youngCollections() - youngBefore < 4; round++) {
        assertThat(cached.map(a -> new byte[1 << 20].length + a[0]).reduce(Long::sum)).isPositive();
      }
      cached.foreachPartition(p -> System.gc());
      cached.unpersist(true);
    } finally {
      spark.stop();
    }
    telemetryDir = events.resolve(appId + ".perflab-telemetry");
    telemetry = TelemetryReader.read(FileSystem.getLocal(new Configuration()).getRaw(),
        TelemetryReader.directoryFor(new org.apache.hadoop.fs.Path(events.resolve(appId).toUri())));
  }

  /** Young collections of this JVM so far, over every young-generation collector JMX lists. */
  private static long youngCollections() {
    return ManagementFactory.getGarbageCollectorMXBeans().stream()
        .filter(gc -> gc.getName().contains("Young") || gc.getName().contains("Scavenge")
            || gc.getName().equals("Copy"))
        .mapToLong(GarbageCollectorMXBean::getCollectionCount).sum();
  }

  @Test
  void theTelemetryDirectorySitsBesideTheEventLogAndReadsWithoutProblems() throws Exception {
    assertThat(telemetryDir).isDirectory();
    try (Stream<Path> files = Files.list(telemetryDir)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .contains("manifest.json", "gc-driver.jsonl", "blocks.jsonl", "tasks.jsonl");
    }
    assertThat(telemetry.problems()).isEmpty();
  }

  @Test
  void collectionsAreRecordedWithSizesAndTheRuntime() {
    GcRun run = telemetry.gcRuns().get("driver");
    assertThat(run.count(GcObservation.Kind.YOUNG)).isPositive();
    assertThat(run.count(GcObservation.Kind.FULL)).isPositive();
    assertThat(run.collections()).anySatisfy(c -> assertThat(c.edenBeforeBytes()).isPositive());
    assertThat(run.runtimeMs()).isPositive();
    assertThat(telemetry.hasGcModelData()).isTrue();
  }

  @Test
  void blockUpdatesAndTasksAreRecorded() {
    List<BlockEvent> rddBlocks = telemetry.blocks().stream()
        .filter(b -> b.kind() == BlockEvent.Kind.RDD && b.action() == BlockEvent.Action.UPDATE).toList();
    assertThat(rddBlocks).extracting(BlockEvent::partition).contains(0, 1, 2, 3);
    assertThat(rddBlocks).anySatisfy(b -> assertThat(b.memBytes()).isGreaterThan(400L * 128 * 8));
    assertThat(telemetry.blocks()).anySatisfy(b -> assertThat(b.action()).isEqualTo(BlockEvent.Action.UNPERSIST_RDD));
    assertThat(telemetry.tasks()).hasSizeGreaterThanOrEqualTo(12);
  }

  @Test
  void noConfigurationValueIsWritten() throws Exception {
    try (Stream<Path> files = Files.list(telemetryDir)) {
      for (Path file : files.toList()) {
        assertThat(Files.readString(file)).doesNotContain(SECRET).doesNotContain(events.toString());
      }
    }
  }

  /**
   * Tier B end to end: the event log ingested (its telemetry directory is not taken for a log), then {@code memory}
   * finds the telemetry beside the log and sizes the heap with the GC model for the Parallel collector.
   */
  @Test
  void theMemoryJobUsesTheTelemetryBesideTheEventLog(@TempDir Path root) throws Exception {
    SparkSession spark = org.perflab.spark.ingest.SparkTestSession.get();
    org.perflab.spark.ingest.IngestSummary ingested = new org.perflab.spark.ingest.Ingest(spark,
        new org.perflab.spark.ingest.IngestOptions(List.of(events.toString()), root.toString(), false,
            org.perflab.eventlog.redact.Redactor.DEFAULT_PATTERN, 0), java.time.Clock.systemUTC()).run();
    assertThat(ingested.toString()).contains("OK=1");

    org.perflab.jobs.MemoryJob.Outcome outcome = org.perflab.jobs.MemoryJobAccess.run(spark, root.toString(), 1.5);

    assertThat(outcome.telemetry().directories()).isEqualTo(1);
    assertThat(outcome.telemetry().advice()).as(outcome.toString()).hasSize(1);
    org.apache.spark.sql.Row row = spark.read().format("delta").load(root.resolve("memory_recommendations").toString())
        .where("scope = 'application'").collectAsList().get(0);
    assertThat(row.<String>getAs("tier")).isEqualTo("instrumented");
    assertThat(row.<String>getAs("heap_basis")).isEqualTo("gc_model");
    assertThat(row.<String>getAs("collector")).isEqualTo("parallel");
    assertThat(row.<String>getAs("gc_flags")).contains("-XX:+UseParallelGC").contains("-Xmn");
    assertThat(row.<String>getAs("evidence")).contains("tier B (GC telemetry of 1 executor(s))");
    long heap = row.<Long>getAs("executor_memory_bytes");
    assertThat((heap - 300L * 1024 * 1024) * row.<Double>getAs("memory_fraction"))
        .isGreaterThanOrEqualTo(row.<Long>getAs("storage_bytes") + row.<Long>getAs("execution_bytes"));
  }
}
