package org.perflab.memory.gc;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What {@link TelemetryReader} recovered from one application's telemetry directory.
 *
 * @param gcRuns each executor's collections and runtime, by executor id ("driver" in local mode)
 * @param blocks block events, in file order
 * @param tasks task metrics, in file order
 * @param problems lines or files that could not be used, counted by reason; empty when everything was read
 * @param linesRead lines read, usable or not
 */
public record Telemetry(Map<String, GcRun> gcRuns, List<BlockEvent> blocks, List<TaskMemory> tasks,
    Map<Problem, Long> problems, long linesRead) {

  /** Why something in a telemetry directory was not used. */
  public enum Problem {
    /** The directory does not exist: the plugin was off, or the application never wrote a record. */
    NO_DIRECTORY,
    /** A file could not be read (one count per file). */
    UNREADABLE_FILE,
    /** No manifest: the application did not shut down cleanly, so records may be missing at the end. */
    NO_MANIFEST,
    /** The manifest is not valid or names another format or version. */
    BAD_MANIFEST,
    /** The manifest counts more lines in a file than the file holds (one count per missing line). */
    MISSING_LINE,
    /** A file's last line has no line break: cut off while being written. */
    TRUNCATED_LINE,
    /** A line is not a JSON object. */
    MALFORMED_JSON,
    /** A record lacks a field, or a field has the wrong type or a negative size. */
    BAD_FIELD,
    /** A record's type is unknown or does not belong in its file. */
    UNKNOWN_TYPE,
    /** An executor's GC file has no {@code executor_end} record (its runtime is then up to its last collection). */
    NO_EXECUTOR_END,
    /** The JVM counted more collections than were recorded (one count per collection missed). */
    MISSED_COLLECTION
  }

  public Telemetry {
    gcRuns = Map.copyOf(gcRuns);
    blocks = List.copyOf(blocks);
    tasks = List.copyOf(tasks);
    problems = problems.isEmpty() ? Map.of() : Map.copyOf(new EnumMap<>(problems));
  }

  /** Whether any GC run has enough collections for the GC model (see {@link HeapSizing#MIN_YOUNG_COLLECTIONS}). */
  public boolean hasGcModelData() {
    return gcRuns.values().stream().anyMatch(run -> run.collections().stream()
        .filter(c -> c.kind() == GcObservation.Kind.YOUNG && c.edenBeforeBytes() > 0).count()
        >= HeapSizing.MIN_YOUNG_COLLECTIONS);
  }
}
