package org.perflab.jobs.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.SparkContext;
import org.apache.spark.api.plugin.DriverPlugin;
import org.apache.spark.api.plugin.ExecutorPlugin;
import org.apache.spark.api.plugin.PluginContext;
import org.apache.spark.api.plugin.SparkPlugin;

/**
 * A benchmark's driver plugin ({@code --conf spark.plugins=org.perflab.jobs.bench.DriverHeapPlugin}): measures the
 * driver's live heap, the heap in use right after a full collection ({@code System.gc()}), whenever the running
 * Spark job group changes (the nightly runs every step under {@code perflab-nightly-<step>}) and every
 * {@code spark.perflab.heapGcSeconds} seconds (default 5) within a group, and samples the heap in use every 200 ms.
 * Each figure is charged to the job group running at the time. On {@code local[N]} the driver is also the executor:
 * its cached blocks and tasks' buffers are in the same heap, so each live figure is also given less the on-heap
 * storage and execution memory Spark's memory manager accounts ({@code unmanaged}), what the driver itself holds. (The pools' usage after their last collection,
 * {@code MemoryPoolMXBean.getCollectionUsage}, is not a live heap under G1: a young collection leaves the old
 * generation's garbage in it.) At its end it writes, to {@code <spark.perflab.heapDir>/<app name>-<pid>.heap}, one
 * line per job group, {@code group=<id> live_bytes=<largest live> peak_bytes=<largest in use>}, and a last line for
 * the whole application without {@code group=}. The collections cost the driver time: a step's seconds under this
 * plugin are upper bounds. Not part of the product: {@code bench/run giant-app} puts it on the driver's class path.
 */
public final class DriverHeapPlugin implements SparkPlugin {
  /** The directory the figures go to. */
  public static final String DIRECTORY = "spark.perflab.heapDir";
  /** Seconds between two full collections within one job group. */
  public static final String GC_SECONDS = "spark.perflab.heapGcSeconds";

  @Override
  public DriverPlugin driverPlugin() {
    return new Sampler();
  }

  @Override
  public ExecutorPlugin executorPlugin() {
    return null;
  }

  /** The sampling thread and what it saw, per job group. */
  private static final class Sampler implements DriverPlugin {
    private static final String WHOLE = "";
    private volatile boolean stopped;
    private volatile String group = WHOLE;
    /**
     * Job group to {largest live bytes, largest bytes in use, largest live bytes outside Spark's managed memory};
     * written by the sampler thread and at shutdown.
     */
    private final Map<String, long[]> bytes = new java.util.concurrent.ConcurrentHashMap<>();
    private Thread thread;
    private Path file;
    private long gcNanos;

    @Override
    public Map<String, String> init(SparkContext context, PluginContext plugin) {
      file = Path.of(context.conf().get(DIRECTORY, System.getProperty("java.io.tmpdir"))).resolve(
          context.appName().replaceAll("[^A-Za-z0-9-]", "_") + "-" + ProcessHandle.current().pid() + ".heap");
      gcNanos = (long) (context.conf().getDouble(GC_SECONDS, 5) * 1e9);
      context.addSparkListener(new org.apache.spark.scheduler.SparkListener() {
        @Override
        public void onJobStart(org.apache.spark.scheduler.SparkListenerJobStart start) {
          String id = start.properties() == null ? null : start.properties().getProperty("spark.jobGroup.id");
          if (id != null) {
            group = id;
          }
        }
      });
      thread = new Thread(() -> {
        String collectedIn = null;
        long collectedAt = 0;
        while (!stopped) {
          String now = group;
          if (!now.equals(collectedIn) || System.nanoTime() - collectedAt >= gcNanos) {
            collect(now);
            collectedIn = now;
            collectedAt = System.nanoTime();
          }
          sample();
          try {
            Thread.sleep(200);
          } catch (InterruptedException e) {
            return;
          }
        }
      }, "perflab-heap-sampler");
      thread.setDaemon(true);
      thread.start();
      return Map.of();
    }

    /** The heap in use now: the peak figure of the group running. */
    private void sample() {
      merge(group, new long[] {0, heapInUse(), 0});
    }

    /**
     * A full collection, then the heap in use: the live figure of {@code id}; less the on-heap storage and execution
     * memory that Spark's memory manager accounts (cached blocks and tasks' buffers, bounded by
     * {@code spark.memory.fraction} and spilled beyond it), its unmanaged live figure.
     */
    private void collect(String id) {
      System.gc();
      long live = heapInUse();
      org.apache.spark.memory.MemoryManager memory = org.apache.spark.SparkEnv.get().memoryManager();
      // Null until the SparkContext has made its memory manager (after the plugins' init).
      long managed = memory == null ? 0 : memory.onHeapStorageMemoryUsed() + memory.onHeapExecutionMemoryUsed();
      merge(id, new long[] {live, live, Math.max(0, live - managed)});
    }

    private void merge(String id, long[] v) {
      java.util.function.BiFunction<long[], long[], long[]> max =
          (a, b) -> new long[] {Math.max(a[0], b[0]), Math.max(a[1], b[1]), Math.max(a[2], b[2])};
      bytes.merge(id, v, max);
      bytes.merge(WHOLE, v, max);
    }

    private static long heapInUse() {
      return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    @Override
    public void shutdown() {
      stopped = true;
      sample();
      long peak = ManagementFactory.getMemoryPoolMXBeans().stream().filter(p -> p.getType() == MemoryType.HEAP)
          .mapToLong(p -> p.getPeakUsage().getUsed()).sum();
      StringBuilder text = new StringBuilder();
      bytes.forEach((id, v) -> {
        if (!id.equals(WHOLE)) {
          text.append(String.format(Locale.ROOT, "group=%s live_bytes=%d peak_bytes=%d unmanaged_live_bytes=%d%n", id,
              v[0], v[1], v[2]));
        }
      });
      long[] whole = bytes.get(WHOLE);
      text.append(String.format(Locale.ROOT, "live_bytes=%d peak_bytes=%d unmanaged_live_bytes=%d%n", whole[0], peak,
          whole[2]));
      try {
        Files.writeString(file, text, StandardCharsets.UTF_8);
      } catch (IOException e) {
        System.err.println("Cannot write the heap sample: " + e.getMessage() + " (" + file + ")");
      }
    }
  }
}
