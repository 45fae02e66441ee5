package org.perflab.plugin;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SparkContext;
import org.apache.spark.api.plugin.DriverPlugin;
import org.apache.spark.api.plugin.PluginContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The driver side: registers {@link BlockTelemetryListener}, receives the executors' GC batches, and writes both into
 * the telemetry directory, {@code <dir>/<appId>[_<attemptId>].perflab-telemetry/}, where {@code <dir>} is
 * {@value #DIR_KEY} when set, else {@code spark.eventLog.dir} (Spark's default {@code /tmp/spark-events}). The
 * directory is opened at the first record, when the application id is known. Telemetry never fails the application:
 * a write error is logged once and further records are dropped.
 */
final class TelemetryDriverPlugin implements DriverPlugin {
  /** Overrides where the telemetry directory goes (the event-log directory by default). */
  static final String DIR_KEY = "spark.perflab.telemetry.dir";
  static final String SUFFIX = ".perflab-telemetry";
  /** How long shutdown waits for queued listener events, in milliseconds. */
  static final long DRAIN_MS = 10_000;
  /** An executor that sent a batch within this many milliseconds before the stop is live: two send intervals. */
  static final long LIVE_MS = 2 * GcTelemetryExecutorPlugin.FLUSH_MS;
  /** How long shutdown waits for each live executor's next batch, in milliseconds: the liveness window and a margin. */
  static final long LAST_BATCH_MS = LIVE_MS + 500;
  private static final Logger LOG = LoggerFactory.getLogger(TelemetryDriverPlugin.class);

  private SparkContext sc;
  private BlockTelemetryListener listener;
  private TelemetryFiles files;
  private final Map<String, TelemetryBatch.Status> statuses = new java.util.TreeMap<>();
  /** When each executor's latest batch arrived ({@link System#nanoTime}). */
  private final Map<String, Long> arrivals = new java.util.HashMap<>();
  private boolean failed;
  private boolean closed;

  @Override
  public Map<String, String> init(SparkContext sparkContext, PluginContext ctx) {
    sc = sparkContext;
    listener = new BlockTelemetryListener(this::append);
    sc.addSparkListener(listener);
    return Map.of();
  }

  @Override
  public synchronized Object receive(Object message) {
    if (message instanceof TelemetryBatch batch && !closed) {
      append(gcFile(batch.executorId()), batch.lines());
      statuses.put(batch.executorId(), batch.status());
      arrivals.put(batch.executorId(), System.nanoTime());
      notifyAll();
    }
    return null;
  }

  /**
   * Waits (at most {@value #DRAIN_MS} ms) until the listener bus has delivered what was posted before the stop, so that
   * the application's last block updates, unpersists and task ends are recorded (SparkContext stops plugins before its
   * listener bus). Then waits (at most {@value #LAST_BATCH_MS} ms) for one more batch from every live executor, so
   * that the collections of the application's last second are recorded: executors stop after driver plugins, so
   * their own final batch always arrives too late. Then writes each executor's latest status as its
   * {@code executor_end} record and closes the files. Batches arriving later are dropped.
   */
  @Override
  public void shutdown() {
    long stopping = System.nanoTime();
    drainListenerBus();
    awaitLastBatches(stopping);
    closeFiles();
  }

  /** Waits until every executor that sent a batch in the {@value #LIVE_MS} ms before {@code stopping} sends one more. */
  private synchronized void awaitLastBatches(long stopping) {
    long live = stopping - TimeUnit.MILLISECONDS.toNanos(LIVE_MS);
    long deadline = stopping + TimeUnit.MILLISECONDS.toNanos(LAST_BATCH_MS);
    for (long left = deadline - System.nanoTime(); left > 0; left = deadline - System.nanoTime()) {
      if (arrivals.values().stream().noneMatch(arrived -> arrived > live && arrived < stopping)) {
        return;
      }
      try {
        TimeUnit.NANOSECONDS.timedWait(this, left);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    LOG.warn("Cannot record the last second of GC telemetry of every executor: no batch within {} ms", LAST_BATCH_MS);
  }

  /** Not synchronized: the listener thread must be able to take this plugin's lock while we wait for it. */
  private void drainListenerBus() {
    try {
      sc.listenerBus().waitUntilEmpty(DRAIN_MS);
    } catch (java.util.concurrent.TimeoutException | RuntimeException e) {
      LOG.warn("Cannot record the last listener events in the memory telemetry: the listener bus did not drain ({} ms)",
          DRAIN_MS);
    }
  }

  private synchronized void closeFiles() {
    sc.removeSparkListener(listener);
    statuses.forEach((executor, status) -> append(gcFile(executor), List.of(endRecord(executor, status))));
    closed = true;
    if (files != null) {
      try {
        files.close();
      } catch (IOException e) {
        LOG.warn("Cannot finish the memory telemetry: {}", e.toString());
      }
    }
  }

  private static String gcFile(String executorId) {
    return "gc-" + executorId + ".jsonl";
  }

  private static String endRecord(String executorId, TelemetryBatch.Status status) {
    Map<String, Object> record = new java.util.LinkedHashMap<>();
    record.put("type", "executor_end");
    record.put("executor", executorId);
    record.put("uptime_ms", status.uptimeMs());
    record.put("gc_count", status.gcCount());
    record.put("gc_time_ms", status.gcTimeMs());
    record.put("recorded", status.recorded());
    return JsonLines.of(record);
  }

  private synchronized void append(String file, List<String> records) {
    if (failed || closed || records.isEmpty()) {
      return;
    }
    try {
      if (files == null) {
        files = new TelemetryFiles(directory(), sc.hadoopConfiguration(), sc.applicationId());
      }
      files.append(file, records);
    } catch (IOException | RuntimeException e) {
      failed = true;
      LOG.warn("Cannot write the memory telemetry, it is off for this application: {}", e.toString());
    }
  }

  /** The telemetry directory of this application attempt. */
  private Path directory() {
    String base = sc.conf().contains(DIR_KEY) ? sc.conf().get(DIR_KEY)
        : sc.conf().get("spark.eventLog.dir", "/tmp/spark-events");
    String name = sc.applicationId() + (sc.applicationAttemptId().isDefined()
        ? "_" + sc.applicationAttemptId().get() : "");
    return new Path(base, name + SUFFIX);
  }
}
