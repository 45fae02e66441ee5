package org.perflab.jobs.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
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
 * A benchmark's driver plugin ({@code --conf spark.plugins=org.perflab.jobs.bench.DriverHeapPlugin}): samples the
 * driver's live heap, the heap pools' usage after their last collection
 * ({@link MemoryPoolMXBean#getCollectionUsage}), every 200 ms while the SparkContext lives, and at its end writes the
 * largest sample and the peak heap in use (bytes) to {@code <spark.perflab.heapDir>/<app name>-<pid>.heap}. Not part of the product: {@code bench/run giant-app} puts it
 * on the driver's class path.
 */
public final class DriverHeapPlugin implements SparkPlugin {
  /** The directory the figures go to. */
  public static final String DIRECTORY = "spark.perflab.heapDir";

  @Override
  public DriverPlugin driverPlugin() {
    return new Sampler();
  }

  @Override
  public ExecutorPlugin executorPlugin() {
    return null;
  }

  /** The sampling thread and what it saw. */
  private static final class Sampler implements DriverPlugin {
    private volatile boolean stopped;
    private volatile long liveBytes;
    private Thread thread;
    private Path file;

    @Override
    public Map<String, String> init(SparkContext context, PluginContext plugin) {
      file = Path.of(context.conf().get(DIRECTORY, System.getProperty("java.io.tmpdir"))).resolve(
          context.appName().replaceAll("[^A-Za-z0-9-]", "_") + "-" + ProcessHandle.current().pid() + ".heap");
      thread = new Thread(() -> {
        while (!stopped) {
          liveBytes = Math.max(liveBytes, live());
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

    @Override
    public void shutdown() {
      stopped = true;
      liveBytes = Math.max(liveBytes, live());
      long peak = ManagementFactory.getMemoryPoolMXBeans().stream().filter(p -> p.getType() == MemoryType.HEAP)
          .mapToLong(p -> p.getPeakUsage().getUsed()).sum();
      try {
        Files.writeString(file, String.format(Locale.ROOT, "live_bytes=%d peak_bytes=%d%n", liveBytes, peak),
            StandardCharsets.UTF_8);
      } catch (IOException e) {
        System.err.println("Cannot write the heap sample: " + e.getMessage() + " (" + file + ")");
      }
    }

    /** The heap in use after the last collection of each heap pool, summed, bytes. */
    private static long live() {
      long sum = 0;
      for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
        MemoryUsage after = pool.getType() == MemoryType.HEAP ? pool.getCollectionUsage() : null;
        sum += after == null ? 0 : after.getUsed();
      }
      return sum;
    }
  }
}
