package org.perflab.eventlog.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerStageCompleted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.eventlog.fixture.LogFixtures;
import scala.Tuple2;

/**
 * A real Spark 4.1 application writes a zstd-compressed rolling log; discovery and the line reader see it whole,
 * and a multi-part copy derived from it by {@link LogFixtures} reads back the same.
 */
class GeneratedSparkLogTest {
  private static final Configuration CONF = new Configuration();
  private static final AtomicInteger TASK_ENDS = new AtomicInteger();
  private static final AtomicInteger STAGES_COMPLETED = new AtomicInteger();

  @TempDir static Path eventLogDir;
  private static String appId;

  /** Counts what the listener bus delivered, to compare with the events the log holds. */
  private static final class Counter extends SparkListener {
    @Override
    public void onTaskEnd(SparkListenerTaskEnd taskEnd) {
      TASK_ENDS.incrementAndGet();
    }

    @Override
    public void onStageCompleted(SparkListenerStageCompleted stageCompleted) {
      STAGES_COMPLETED.incrementAndGet();
    }
  }

  @BeforeAll
  static void runSparkApplication() {
    SparkConf conf = new SparkConf()
        .setMaster("local[2]")
        .setAppName("perflab-generated-log")
        .set("spark.ui.enabled", "false")
        .set("spark.driver.host", "127.0.0.1")
        .set("spark.eventLog.enabled", "true")
        .set("spark.eventLog.dir", eventLogDir.toUri().toString())
        .set("spark.eventLog.compress", "true")
        .set("spark.eventLog.compression.codec", "zstd")
        .set("spark.eventLog.rolling.enabled", "true")
        .set("spark.eventLog.rolling.maxFileSize", "10m");
    try (JavaSparkContext sc = new JavaSparkContext(conf)) {
      sc.sc().addSparkListener(new Counter());
      appId = sc.sc().applicationId();
      sc.parallelize(List.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), 4)
          .mapToPair(x -> new Tuple2<>(x % 3, x))
          .reduceByKey(Integer::sum, 3)
          .count();
    }
  }

  @Test
  void findsTheCompletedZstdRollingLog() throws IOException {
    EventLogSource log = EventLogLinesTest.discoverOne(eventLogDir);

    assertThat(log.layout()).isEqualTo(LogLayout.ROLLING_DIRECTORY);
    assertThat(log.path()).endsWith("/eventlog_v2_" + appId);
    assertThat(log.parts()).singleElement().asString().endsWith("/events_1_" + appId + ".zstd");
    assertThat(log.codec()).isEqualTo(LogCompression.ZSTD);
    assertThat(log.inProgress()).isFalse();
    assertThat(log.bytes()).isPositive();
  }

  @Test
  void linesHoldEveryEventTheListenerBusDelivered() throws IOException {
    List<String> lines = EventLogLinesTest.readAll(EventLogLinesTest.discoverOne(eventLogDir));

    assertThat(lines.get(0)).startsWith("{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"4.1.0\"");
    assertThat(LogFixtures.appIdOf(lines)).isEqualTo(appId);
    assertThat(count(lines, "SparkListenerTaskEnd")).isEqualTo(TASK_ENDS.get()).isEqualTo(7);
    assertThat(count(lines, "SparkListenerStageCompleted")).isEqualTo(STAGES_COMPLETED.get()).isEqualTo(2);
    assertThat(lines.get(lines.size() - 1)).startsWith("{\"Event\":\"SparkListenerApplicationEnd\"");
  }

  @Test
  void derivedMultiPartCopyReadsBackTheSameLines(@TempDir Path out) throws IOException {
    List<String> lines = EventLogLinesTest.readAll(EventLogLinesTest.discoverOne(eventLogDir));
    Path copy = LogFixtures.rollingDirectory(out, appId, lines, LogCompression.ZSTD, 4, false);

    EventLogSource derived = EventLogLinesTest.discoverOne(copy);

    assertThat(derived.parts()).hasSize((lines.size() + 3) / 4);
    assertThat(EventLogLinesTest.readAll(derived)).isEqualTo(lines);
  }

  private static long count(List<String> lines, String event) {
    return lines.stream().filter(l -> l.startsWith("{\"Event\":\"" + event + "\"")).count();
  }
}
