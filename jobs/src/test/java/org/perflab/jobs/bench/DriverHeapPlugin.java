package org.perflab.jobs.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
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
 * driver's live heap, the heap in use right after a full collection ({@code System.gc()}), when a Spark job group
 * runs its first job (the nightly runs every step under {@code perflab-nightly-<step>}) and every
 * {@code spark.perflab.heapGcSeconds} seconds (default 5), at most one a second, and samples the heap in use every
 * 200 ms. Each figure is charged to every job group with a job running at the time (two steps of a night may run at
 * once, and then share the heap), or to the latest group when none runs. On {@code local[N]} the driver is also the executor:
 * its cached blocks and tasks' buffers are in the same heap, so each live figure is also given less the on-heap
 * storage and execution memory Spark's memory manager accounts ({@code unmanaged}), what the driver itself holds. (The pools' usage after their last collection,
 * {@code MemoryPoolMXBean.getCollectionUsage}, is not a live heap under G1: a young collection leaves the old
 * generation's garbage in it.) At its end it writes, to {@code <spark.perflab.heapDir>/<app name>-<pid>.heap}, one
 * line per job group, {@code group=<id> live_bytes=<largest live> peak_bytes=<largest in use> unmanaged_live_bytes=<largest
 * unmanaged> start_unmanaged_bytes=<unmanaged at the group's first collection>} (with one step at a time, the start
 * figure is what the steps before it left in the heap), and a last line for
 * the whole application without {@code group=} (its peak: the largest sampled), then {@code collections=<n>
 * collection_seconds=<s>}; and, when the unmanaged live figure passed 400 MB, to {@code <that file>.histogram} the
 * class histograms and task threads' frames taken then, and at a group's first collection when its start figure is
 * over 400 MB. The collections cost the driver time: a step's seconds under this plugin are upper bounds,
 * by at most the collections' seconds. Not part of the product: {@code bench/run giant-app} puts it on the driver's class path.
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
    /** The least time between two collections, even when a new job group starts. */
    private static final long MIN_GAP_NANOS = 1_000_000_000L;
    /** The unmanaged live bytes from which a class histogram is taken. */
    private static final long HISTOGRAM_FLOOR = 400_000_000L;
    private volatile boolean stopped;
    /** The job group of the latest job: charged when no job runs. */
    private volatile String latest = WHOLE;
    /** Job id to its job group, for the jobs running now (two steps of a night may run at once). */
    private final Map<Integer, String> running = new java.util.concurrent.ConcurrentHashMap<>();
    /**
     * Job group to {largest live bytes, largest bytes in use, largest live bytes outside Spark's managed memory};
     * written by the sampler thread and at shutdown.
     */
    private final Map<String, long[]> bytes = new java.util.concurrent.ConcurrentHashMap<>();
    /**
     * Job group to the unmanaged live bytes of the first collection after its first job started: with one step at a
     * time, what the steps before it left in the heap (and the little its first job holds by then).
     */
    private final Map<String, Long> atStart = new java.util.concurrent.ConcurrentHashMap<>();
    private Thread thread;
    private Path file;
    private long gcNanos;
    private int collections;
    private long collectionNanos;
    /** The largest unmanaged live bytes a class histogram was taken at, and every histogram taken, with its context. */
    private long histogramAt;
    private String histogram = "";

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
            running.put(start.jobId(), id);
            latest = id;
          }
        }

        @Override
        public void onJobEnd(org.apache.spark.scheduler.SparkListenerJobEnd end) {
          running.remove(end.jobId());
        }
      });
      thread = new Thread(() -> {
        java.util.Set<String> collected = new java.util.HashSet<>();
        long collectedAt = System.nanoTime() - gcNanos;
        while (!stopped) {
          java.util.Set<String> now = groups();
          long since = System.nanoTime() - collectedAt;
          java.util.Set<String> fresh = new java.util.TreeSet<>(now);
          fresh.removeAll(collected);
          if ((!fresh.isEmpty() && since >= MIN_GAP_NANOS) || since >= gcNanos) {
            collect(now, fresh);
            collected.addAll(now);
            collectedAt = System.nanoTime();
          }
          sample(now);
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

    /** The job groups running now, or the latest one when no job runs. */
    private java.util.Set<String> groups() {
      java.util.Set<String> now = new java.util.TreeSet<>(running.values());
      if (now.isEmpty()) {
        now.add(latest);
      }
      return now;
    }

    /** The heap in use now: the peak figure of every group running. */
    private void sample(java.util.Set<String> now) {
      long inUse = heapInUse();
      now.forEach(id -> merge(id, new long[] {0, inUse, 0}));
    }

    /**
     * A full collection, then the heap in use: the live figure of every group in {@code now} (two steps that run at
     * once share the heap, so each is charged what both hold); less the on-heap storage and execution memory that
     * Spark's memory manager accounts (cached blocks and tasks' buffers, bounded by {@code spark.memory.fraction} and
     * spilled beyond it), its unmanaged live figure. At most one collection a second, whatever the groups do.
     */
    private void collect(java.util.Set<String> now, java.util.Set<String> fresh) {
      long start = System.nanoTime();
      System.gc();
      collections++;
      collectionNanos += System.nanoTime() - start;
      long live = heapInUse();
      org.apache.spark.memory.MemoryManager memory = org.apache.spark.SparkEnv.get().memoryManager();
      // Null until the SparkContext has made its memory manager (after the plugins' init).
      long managed = memory == null ? 0 : memory.onHeapStorageMemoryUsed() + memory.onHeapExecutionMemoryUsed();
      long unmanaged = Math.max(0, live - managed);
      now.forEach(id -> merge(id, new long[] {live, live, unmanaged}));
      fresh.forEach(id -> atStart.putIfAbsent(id, unmanaged));
      if (unmanaged >= HISTOGRAM_FLOOR && (!fresh.isEmpty() || unmanaged > histogramAt + histogramAt / 5)) {
        histogramAt = Math.max(histogramAt, unmanaged);
        histogram += (fresh.isEmpty() ? "" : "first collection of " + fresh + " ") + histogram(now, live, managed);
      }
    }

    /**
     * What holds the unmanaged heap: the largest classes of live objects and their total ({@code GC.class_histogram},
     * its own full collection) and the top frames of Spark's task threads, with the job groups running then. Taken when
     * the unmanaged live figure passes {@value #HISTOGRAM_FLOOR} bytes, again whenever it grows by a fifth, and at a job
     * group's first collection while it is over that floor (what the steps before it left).
     */
    private static String histogram(java.util.Set<String> now, long live, long managed) {
      StringBuilder out = new StringBuilder(String.format(Locale.ROOT,
          "at %s: groups %s, live %d MB, managed %d MB%n", java.time.Instant.now(), now, live / 1_000_000,
          managed / 1_000_000));
      try {
        Object text = ManagementFactory.getPlatformMBeanServer().invoke(
            new javax.management.ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
            new Object[] {new String[0]}, new String[] {String[].class.getName()});
        String[] lines = String.valueOf(text).split("\n");
        for (int i = 0; i < Math.min(lines.length, 27); i++) {
          out.append(lines[i]).append('\n');
        }
        // The last line, "Total <instances> <bytes>": every live object, the classes beyond the 25 shown included.
        if (lines.length > 27) {
          out.append(lines[lines.length - 1].strip()).append('\n');
        }
      } catch (javax.management.JMException e) {
        out.append("Cannot take a class histogram: ").append(e.getMessage()).append('\n');
      }
      Thread.getAllStackTraces().forEach((t, frames) -> {
        if (t.getName().startsWith("Executor task launch") || t.getName().startsWith("perflab-night-step")) {
          out.append("thread ").append(t.getName()).append('\n');
          for (int i = 0; i < Math.min(frames.length, 14); i++) {
            out.append("    ").append(frames[i]).append('\n');
          }
        }
      });
      return out.toString();
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
      // The sampler thread's last collection ends before its counts are read.
      thread.interrupt();
      try {
        thread.join(10_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      sample(groups());
      StringBuilder text = new StringBuilder();
      bytes.forEach((id, v) -> {
        if (!id.equals(WHOLE)) {
          text.append(String.format(Locale.ROOT,
              "group=%s live_bytes=%d peak_bytes=%d unmanaged_live_bytes=%d start_unmanaged_bytes=%d%n", id, v[0],
              v[1], v[2], atStart.getOrDefault(id, -1L)));
        }
      });
      long[] whole = bytes.get(WHOLE);
      text.append(String.format(Locale.ROOT, "live_bytes=%d peak_bytes=%d unmanaged_live_bytes=%d%n", whole[0],
          whole[1], whole[2]));
      text.append(String.format(Locale.ROOT, "collections=%d collection_seconds=%.1f%n", collections,
          collectionNanos / 1e9));
      try {
        Files.writeString(file, text, StandardCharsets.UTF_8);
        if (!histogram.isEmpty()) {
          Files.writeString(file.resolveSibling(file.getFileName() + ".histogram"), histogram, StandardCharsets.UTF_8);
        }
      } catch (IOException e) {
        System.err.println("Cannot write the heap sample: " + e.getMessage() + " (" + file + ")");
      }
    }
  }
}
