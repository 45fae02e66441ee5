package org.perflab.plugin;

import com.sun.management.GarbageCollectionNotificationInfo;
import com.sun.management.GcInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import org.apache.spark.api.plugin.ExecutorPlugin;
import org.apache.spark.api.plugin.PluginContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The executor side: one record per garbage collection from JMX {@link GarbageCollectionNotificationInfo} (collector,
 * action, cause, start and duration, eden/survivor/old usage before and after), queued by the notification thread and
 * sent to the driver once a second ({@link PluginContext#send}) with the executor's status (uptime and the JVM's own
 * collection counters), from which the driver writes the {@code executor_end} record.
 */
final class GcTelemetryExecutorPlugin implements ExecutorPlugin, NotificationListener {
  private static final Logger LOG = LoggerFactory.getLogger(GcTelemetryExecutorPlugin.class);
  /** How often an executor sends its queued records and status to the driver, in milliseconds. */
  static final long FLUSH_MS = 1000;

  private final ConcurrentLinkedQueue<String> queue = new ConcurrentLinkedQueue<>();
  private final AtomicLong sequence = new AtomicLong();
  private final List<NotificationEmitter> emitters = new ArrayList<>();
  private PluginContext context;
  private ScheduledExecutorService flusher;
  private long startCount;
  private long startTimeMs;
  private long previousCount;
  private long previousTimeMs;

  @Override
  public void init(PluginContext ctx, Map<String, String> extraConf) {
    context = ctx;
    startCount = collectorTotal(true);
    startTimeMs = collectorTotal(false);
    queue.add(JsonLines.of(startRecord()));
    for (GarbageCollectorMXBean bean : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (bean instanceof NotificationEmitter emitter) {
        emitter.addNotificationListener(this, null, null);
        emitters.add(emitter);
      }
    }
    flusher = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, "perflab-gc-telemetry");
      thread.setDaemon(true);
      return thread;
    });
    flusher.scheduleWithFixedDelay(this::flush, FLUSH_MS, FLUSH_MS, TimeUnit.MILLISECONDS);
  }

  @Override
  public void handleNotification(Notification notification, Object handback) {
    if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
      GarbageCollectionNotificationInfo info =
          GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
      queue.add(JsonLines.of(gcRecord(info)));
    }
  }

  @Override
  public void shutdown() {
    for (NotificationEmitter emitter : emitters) {
      try {
        emitter.removeNotificationListener(this);
      } catch (ListenerNotFoundException e) {
        LOG.debug("GC listener already removed", e);
      }
    }
    if (flusher != null) {
      flusher.shutdown();
    }
    flush();
  }

  /** Sends the queued records and the status; collection counters lag one interval (see the status's Javadoc). */
  private synchronized void flush() {
    TelemetryBatch.Status status = new TelemetryBatch.Status(ManagementFactory.getRuntimeMXBean().getUptime(),
        previousCount, previousTimeMs, sequence.get());
    previousCount = collectorTotal(true) - startCount;
    previousTimeMs = collectorTotal(false) - startTimeMs;
    List<String> lines = new ArrayList<>();
    for (String line = queue.poll(); line != null; line = queue.poll()) {
      lines.add(line);
    }
    try {
      context.send(new TelemetryBatch(context.executorID(), lines, status));
    } catch (Exception e) {
      LOG.warn("Cannot send {} GC telemetry records to the driver: {}", lines.size(), e.toString());
    }
  }

  private Map<String, Object> startRecord() {
    Map<String, Object> record = header("executor_start");
    record.put("uptime_ms", ManagementFactory.getRuntimeMXBean().getUptime());
    record.put("max_heap", ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getMax());
    record.put("collectors", ManagementFactory.getGarbageCollectorMXBeans().stream()
        .map(GarbageCollectorMXBean::getName).toList());
    return record;
  }

  private Map<String, Object> gcRecord(GarbageCollectionNotificationInfo info) {
    GcInfo gc = info.getGcInfo();
    Map<String, Object> record = header("gc");
    record.put("seq", sequence.getAndIncrement());
    record.put("collector", info.getGcName());
    record.put("action", info.getGcAction());
    record.put("cause", info.getGcCause());
    record.put("start_ms", gc.getStartTime());
    record.put("duration_ms", gc.getDuration());
    Pools before = Pools.of(gc.getMemoryUsageBeforeGc());
    Pools after = Pools.of(gc.getMemoryUsageAfterGc());
    record.put("eden_before", before.eden().used());
    record.put("eden_after", after.eden().used());
    record.put("eden_committed", before.eden().committed());
    record.put("survivor_before", before.survivor().used());
    record.put("survivor_after", after.survivor().used());
    record.put("old_before", before.old().used());
    record.put("old_after", after.old().used());
    record.put("old_committed", Math.max(before.old().committed(), after.old().committed()));
    return record;
  }

  private Map<String, Object> header(String type) {
    Map<String, Object> record = new LinkedHashMap<>();
    record.put("type", type);
    record.put("executor", context.executorID());
    return record;
  }

  /** The collection count (or time, ms) summed over the JVM's collectors. */
  private static long collectorTotal(boolean count) {
    return ManagementFactory.getGarbageCollectorMXBeans().stream()
        .mapToLong(bean -> Math.max(0, count ? bean.getCollectionCount() : bean.getCollectionTime())).sum();
  }

  /** Usage of the eden, survivor and old pools, summed by kind; empty usage for a kind the collector lacks. */
  private record Pools(Usage eden, Usage survivor, Usage old) {
    static Pools of(Map<String, MemoryUsage> usage) {
      return new Pools(sum(usage, "Eden"), sum(usage, "Survivor"), sum(usage, "Old Gen", "Tenured"));
    }

    private static Usage sum(Map<String, MemoryUsage> usage, String... names) {
      long used = 0;
      long committed = 0;
      for (Map.Entry<String, MemoryUsage> pool : usage.entrySet()) {
        for (String name : names) {
          if (pool.getKey().contains(name)) {
            used += pool.getValue().getUsed();
            committed += pool.getValue().getCommitted();
          }
        }
      }
      return new Usage(used, committed);
    }
  }

  /** A pool kind's used and committed bytes. */
  private record Usage(long used, long committed) {}
}
