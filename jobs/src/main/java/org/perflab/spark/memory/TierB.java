package org.perflab.spark.memory;

import org.perflab.memory.MemoryManager;
import org.perflab.memory.SparkMemorySettings;
import org.perflab.memory.WorkerMemory;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.perflab.spark.memory.MemoryTables.HeapBasis;
import org.perflab.spark.memory.MemoryTables.Tier;
import org.perflab.memory.gc.Collector;
import org.perflab.memory.gc.GcRun;
import org.perflab.memory.gc.HeapAdvice;
import org.perflab.memory.gc.HeapSizing;
import org.perflab.memory.gc.Telemetry;
import org.perflab.memory.gc.TelemetryReader;

/**
 * Tier B: the GC model's heap for the applications that ran with PerfLab's telemetry plugin
 * ({@code org.perflab.plugin.MemoryTelemetryPlugin}), read from the telemetry directory beside each event log
 * (docs/memory-telemetry.md). An application without a directory, or whose telemetry has too few collections for the
 * model, keeps its Tier A row; problems in the files are counted by reason, never thrown.
 */
public final class TierB {
  private TierB() {}

  /**
   * An application with a Tier A recommendation, where its telemetry may be.
   *
   * @param managedBytes the framework's managed need per executor (storage + execution), bytes
   */
  public record Candidate(String logId, String logPath, long managedBytes) {}

  /**
   * The GC model's advice for one application.
   *
   * @param heapBytes the heap of the largest executor's advice, bytes
   * @param gcFlags the JVM flags for {@code spark.executor.extraJavaOptions}, space-separated
   */
  public record Advice(long heapBytes, String gcFlags, String evidence) implements Serializable {}

  /**
   * What the scan found.
   *
   * @param advice the GC model's advice by log id, for the applications with usable telemetry
   * @param directories telemetry directories found
   * @param fellBack directories found whose telemetry the model could not use (Tier A stands)
   * @param problems problems in the files read, by reason
   */
  public record Scan(Map<String, Advice> advice, int directories, int fellBack, Map<Telemetry.Problem, Long> problems)
      implements Serializable {}

  /** Lists each event-log directory once, reads the telemetry of the candidates that have it, and advises. */
  public static Scan scan(List<Candidate> candidates, Configuration conf) {
    Map<Path, List<Candidate>> byParent = new HashMap<>();
    for (Candidate c : candidates) {
      Path log = new Path(c.logPath());
      if (log.getParent() != null) {
        byParent.computeIfAbsent(log.getParent(), p -> new ArrayList<>()).add(c);
      }
    }
    Map<String, Advice> advice = new HashMap<>();
    Map<Telemetry.Problem, Long> problems = new EnumMap<>(Telemetry.Problem.class);
    int directories = 0;
    int fellBack = 0;
    for (Map.Entry<Path, List<Candidate>> entry : byParent.entrySet()) {
      Set<String> names = names(entry.getKey(), conf);
      for (Candidate c : entry.getValue()) {
        Path dir = TelemetryReader.directoryFor(new Path(c.logPath()));
        if (!names.contains(dir.getName())) {
          continue;
        }
        directories++;
        Telemetry telemetry = TelemetryReader.read(fileSystem(dir, conf), dir);
        telemetry.problems().forEach((problem, count) -> problems.merge(problem, count, Long::sum));
        Advice a = advise(telemetry, c.managedBytes());
        if (a == null) {
          fellBack++;
        } else {
          advice.put(c.logId(), a);
        }
      }
    }
    return new Scan(advice, directories, fellBack, problems);
  }

  /** The largest executor's GC-model heap, or null when no executor has enough collections for the model. */
  static Advice advise(Telemetry telemetry, long managedBytes) {
    if (!telemetry.hasGcModelData()) {
      return null;
    }
    // An application that cached nothing and used no execution memory still has a heap for the GC model to size.
    long framework = Math.max(1L, managedBytes);
    HeapAdvice best = null;
    for (GcRun run : telemetry.gcRuns().values()) {
      HeapAdvice a = HeapSizing.advise(run, framework, Collector.PARALLEL);
      if (a.basis() == HeapAdvice.Basis.GC_MODEL && (best == null || a.heapBytes() > best.heapBytes())) {
        best = a;
      }
    }
    return best == null ? null : new Advice(best.heapBytes(), String.join(" ", best.jvmFlags()),
        "tier B (GC telemetry of " + telemetry.gcRuns().size() + " executor(s)): " + best.evidence());
  }

  /**
   * {@code row} (schema {@link MemoryTables#RECOMMENDATIONS}, a Tier A application row) with the GC model's heap:
   * settings derived again for that heap, the Parallel collector's flags, tier {@code instrumented}.
   */
  public static Row apply(Row row, Advice advice) {
    if (MemoryRows.name(MemoryManager.STATIC).equals(get(row, MemoryTables.MEMORY_MANAGER))) {
      return row; // Spark before 1.6: the plugin's telemetry needs Spark 3, and the GC model sizes the unified heap
    }
    WorkerMemory worker = new WorkerMemory(get(row, MemoryTables.STORAGE_BYTES), get(row, MemoryTables.UNROLL_BYTES),
        get(row, MemoryTables.EXECUTION_BYTES), get(row, MemoryTables.PAGE_CACHE_BYTES));
    SparkMemorySettings settings = SparkMemorySettings.withHeap(worker, advice.heapBytes());
    Object[] values = new Object[row.length()];
    for (int i = 0; i < values.length; i++) {
      values[i] = row.get(i);
    }
    set(values, row, MemoryTables.EXECUTOR_MEMORY_BYTES, settings.executorMemoryBytes());
    set(values, row, "memory_fraction", settings.memoryFraction());
    set(values, row, "storage_fraction", settings.storageFraction());
    set(values, row, "memory_overhead_bytes", settings.memoryOverheadBytes());
    set(values, row, "gc_flags", advice.gcFlags().isEmpty() ? null : advice.gcFlags());
    set(values, row, "collector", MemoryRows.name(Collector.PARALLEL));
    set(values, row, "heap_basis", MemoryRows.name(HeapBasis.GC_MODEL));
    set(values, row, "tier", MemoryRows.name(Tier.INSTRUMENTED));
    set(values, row, "evidence", get(row, "evidence") + "; " + advice.evidence());
    return RowFactory.create(values);
  }

  @SuppressWarnings("unchecked")
  private static <T> T get(Row row, String field) {
    return (T) row.get(MemoryTables.RECOMMENDATIONS.fieldIndex(field));
  }

  private static void set(Object[] values, Row row, String field, Object value) {
    values[MemoryTables.RECOMMENDATIONS.fieldIndex(field)] = value;
  }

  private static Set<String> names(Path dir, Configuration conf) {
    Set<String> names = new HashSet<>();
    try {
      for (FileStatus status : fileSystem(dir, conf).listStatus(dir)) {
        if (status.isDirectory()) {
          names.add(status.getPath().getName());
        }
      }
    } catch (IOException e) {
      // An archive directory gone since ingest: no telemetry there; Tier A stands for its logs.
    }
    return names;
  }

  private static FileSystem fileSystem(Path path, Configuration conf) {
    try {
      return path.getFileSystem(conf);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("Cannot read telemetry: " + e.getMessage() + " (" + path + ")", e);
    }
  }
}
