package org.perflab.memory.gc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Reads the directory PerfLab's memory telemetry plugin writes next to an event log ({@code
 * <appId>[_<attemptId>].perflab-telemetry/}; format in docs/memory-telemetry.md) into GC runs, block events and task
 * metrics. It never throws on bad input: a missing directory, an unreadable file, a cut-off or malformed line, a record
 * with a missing or negative field, all are skipped and counted in {@link Telemetry#problems()}.
 */
public final class TelemetryReader {
  /** The telemetry directory's suffix after the event log's name. */
  public static final String SUFFIX = ".perflab-telemetry";
  /** The format version this reader understands. */
  public static final int FORMAT_VERSION = 1;

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> CODECS = List.of(".lz4", ".lzf", ".snappy", ".zstd");

  private final Map<Telemetry.Problem, Long> problems = new EnumMap<>(Telemetry.Problem.class);
  private final Map<String, GcFile> gc = new TreeMap<>();
  private final List<BlockEvent> blocks = new ArrayList<>();
  private final List<TaskMemory> tasks = new ArrayList<>();
  private long linesRead;

  private TelemetryReader() {}

  /**
   * The telemetry directory beside an event log: for {@code dir/app-1_1.zstd}, {@code dir/eventlog_v2_app-1_1/} (a
   * rolling log) or {@code dir/app-1_1.inprogress}, it is {@code dir/app-1_1.perflab-telemetry}.
   */
  public static Path directoryFor(Path eventLog) {
    String name = eventLog.getName();
    if (name.endsWith(".inprogress")) {
      name = name.substring(0, name.length() - ".inprogress".length());
    }
    for (String codec : CODECS) {
      if (name.endsWith(codec)) {
        name = name.substring(0, name.length() - codec.length());
      }
    }
    if (name.startsWith("eventlog_v2_")) {
      name = name.substring("eventlog_v2_".length());
    }
    return new Path(eventLog.getParent(), name + SUFFIX);
  }

  /** Everything usable in {@code dir}, and what was not, counted by reason. */
  public static Telemetry read(FileSystem fs, Path dir) {
    TelemetryReader reader = new TelemetryReader();
    reader.readDirectory(fs, dir);
    Map<String, GcRun> runs = new TreeMap<>();
    reader.gc.forEach((executor, file) -> runs.put(executor, file.run(reader::count)));
    return new Telemetry(runs, reader.blocks, reader.tasks, reader.problems, reader.linesRead);
  }

  private void readDirectory(FileSystem fs, Path dir) {
    FileStatus[] files;
    try {
      if (!fs.exists(dir)) {
        count(Telemetry.Problem.NO_DIRECTORY, 1);
        return;
      }
      files = fs.listStatus(dir);
    } catch (IOException e) {
      count(Telemetry.Problem.UNREADABLE_FILE, 1);
      return;
    }
    Map<String, Long> expected = manifest(fs, new Path(dir, "manifest.json"));
    for (FileStatus file : files) {
      String name = file.getPath().getName();
      if (name.startsWith("gc-") && name.endsWith(".jsonl")) {
        String executor = name.substring(3, name.length() - ".jsonl".length());
        GcFile state = gc.computeIfAbsent(executor, e -> new GcFile());
        readLines(fs, file.getPath(), expected.get(name), state::accept);
      } else if (name.equals("blocks.jsonl")) {
        readLines(fs, file.getPath(), expected.get(name), this::block);
      } else if (name.equals("tasks.jsonl")) {
        readLines(fs, file.getPath(), expected.get(name), this::task);
      }
    }
  }

  /** The manifest's line count per file; empty, with the problem counted, when it is absent or unusable. */
  private Map<String, Long> manifest(FileSystem fs, Path path) {
    Map<String, Long> lines = new HashMap<>();
    try {
      if (!fs.exists(path)) {
        count(Telemetry.Problem.NO_MANIFEST, 1);
        return lines;
      }
      JsonNode manifest = JSON.readTree(text(fs, path));
      if (manifest == null || !"perflab-telemetry".equals(manifest.path("format").asText())
          || manifest.path("version").asInt(-1) != FORMAT_VERSION || !manifest.path("lines").isObject()) {
        count(Telemetry.Problem.BAD_MANIFEST, 1);
        return lines;
      }
      manifest.path("lines").fields().forEachRemaining(e -> lines.put(e.getKey(), e.getValue().asLong()));
    } catch (IOException e) {
      count(Telemetry.Problem.BAD_MANIFEST, 1);
    }
    return lines;
  }

  private void readLines(FileSystem fs, Path path, Long expected, Consumer<JsonNode> parse) {
    String text;
    try {
      text = text(fs, path);
    } catch (IOException e) {
      count(Telemetry.Problem.UNREADABLE_FILE, 1);
      return;
    }
    String[] lines = text.split("\n", -1);
    int complete = lines.length - 1;
    if (!lines[complete].isEmpty()) {
      count(Telemetry.Problem.TRUNCATED_LINE, 1);
      linesRead++;
    }
    if (expected != null && expected > complete) {
      count(Telemetry.Problem.MISSING_LINE, expected - complete);
    }
    for (int i = 0; i < complete; i++) {
      linesRead++;
      JsonNode record = parseLine(lines[i]);
      if (record == null) {
        count(Telemetry.Problem.MALFORMED_JSON, 1);
        continue;
      }
      try {
        parse.accept(record);
      } catch (BadField e) {
        count(Telemetry.Problem.BAD_FIELD, 1);
      } catch (UnknownType e) {
        count(Telemetry.Problem.UNKNOWN_TYPE, 1);
      }
    }
  }

  private static JsonNode parseLine(String line) {
    try {
      JsonNode node = JSON.readTree(line);
      return node != null && node.isObject() ? node : null;
    } catch (IOException e) {
      return null;
    }
  }

  private static String text(FileSystem fs, Path path) throws IOException {
    try (InputStream in = fs.open(path)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private void block(JsonNode r) {
    String type = r.path("type").asText();
    if (type.equals("unpersist_rdd")) {
      blocks.add(new BlockEvent(BlockEvent.Action.UNPERSIST_RDD, size(r, "time_ms"), "", "",
          BlockEvent.Kind.RDD, (int) size(r, "rdd_id"), -1, -1, false, false, 0, 0));
      return;
    }
    requireType(r, "block");
    BlockEvent.Kind kind;
    try {
      kind = BlockEvent.Kind.valueOf(text(r, "kind").toUpperCase(java.util.Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new BadField();
    }
    blocks.add(new BlockEvent(BlockEvent.Action.UPDATE, size(r, "time_ms"), text(r, "executor"), text(r, "block"),
        kind, (int) r.path("rdd_id").asLong(-1), (int) r.path("partition").asLong(-1),
        r.path("broadcast_id").asLong(-1), bool(r, "use_memory"), bool(r, "use_disk"), size(r, "mem_bytes"),
        size(r, "disk_bytes")));
  }

  private void task(JsonNode r) {
    requireType(r, "task");
    boolean metrics = r.has("gc_ms");
    tasks.add(new TaskMemory((int) size(r, "stage"), (int) size(r, "stage_attempt"), size(r, "task"),
        text(r, "executor"), size(r, "launch_ms"), size(r, "finish_ms"), bool(r, "successful"),
        metrics ? size(r, "gc_ms") : 0, metrics ? size(r, "peak_execution_bytes") : 0,
        metrics ? size(r, "memory_spilled_bytes") : 0, metrics ? size(r, "disk_spilled_bytes") : 0,
        metrics ? size(r, "input_bytes") : 0, metrics ? size(r, "shuffle_read_bytes") : 0,
        metrics ? size(r, "shuffle_write_bytes") : 0));
  }

  private void count(Telemetry.Problem problem, long n) {
    problems.merge(problem, n, Long::sum);
  }

  private static void requireType(JsonNode r, String type) {
    if (!type.equals(r.path("type").asText())) {
      throw new UnknownType();
    }
  }

  static long size(JsonNode r, String field) {
    JsonNode v = r.get(field);
    if (v == null || !v.isIntegralNumber() || v.asLong() < 0) {
      throw new BadField();
    }
    return v.asLong();
  }

  static String text(JsonNode r, String field) {
    JsonNode v = r.get(field);
    if (v == null || !v.isTextual()) {
      throw new BadField();
    }
    return v.asText();
  }

  static boolean bool(JsonNode r, String field) {
    JsonNode v = r.get(field);
    if (v == null || !v.isBoolean()) {
      throw new BadField();
    }
    return v.asBoolean();
  }

  /** A record with a missing, mistyped or negative field. */
  static final class BadField extends RuntimeException {
    BadField() {
      super(null, null, false, false);
    }
  }

  /** A record of an unknown type, or of a type that does not belong in its file. */
  static final class UnknownType extends RuntimeException {
    UnknownType() {
      super(null, null, false, false);
    }
  }

  /** One executor's GC file, accumulated record by record. */
  private static final class GcFile {
    private final List<GcObservation> collections = new ArrayList<>();
    private long startUptimeMs = -1;
    private long endUptimeMs = -1;
    private long jvmCount = -1;
    private long recorded;
    private long lastEndMs;

    void accept(JsonNode r) {
      switch (r.path("type").asText()) {
        case "executor_start" -> startUptimeMs = size(r, "uptime_ms");
        case "executor_end" -> {
          endUptimeMs = size(r, "uptime_ms");
          jvmCount = size(r, "gc_count");
        }
        case "gc" -> collection(r);
        default -> throw new UnknownType();
      }
    }

    private void collection(JsonNode r) {
      String action = text(r, "action");
      long start = size(r, "start_ms");
      long duration = size(r, "duration_ms");
      long edenBefore = size(r, "eden_before");
      long edenCommitted = size(r, "eden_committed");
      long oldBefore = size(r, "old_before");
      long oldAfter = size(r, "old_after");
      long oldCommitted = size(r, "old_committed");
      recorded++;
      lastEndMs = Math.max(lastEndMs, start + duration);
      if (action.contains("minor")) {
        collections.add(GcObservation.young(edenBefore, edenCommitted, Math.max(0, oldAfter - oldBefore), oldAfter,
            oldCommitted, duration));
      } else if (action.contains("major")) {
        collections.add(GcObservation.full(edenBefore, edenCommitted, oldAfter, oldCommitted, duration));
      }
    }

    /** The run, counting a missing end record and collections the JVM made but the file lacks. */
    GcRun run(java.util.function.ObjLongConsumer<Telemetry.Problem> problems) {
      long from = Math.max(0, startUptimeMs);
      long to = endUptimeMs;
      if (to < 0) {
        problems.accept(Telemetry.Problem.NO_EXECUTOR_END, 1);
        to = lastEndMs;
      } else if (jvmCount > recorded) {
        problems.accept(Telemetry.Problem.MISSED_COLLECTION, jvmCount - recorded);
      }
      return new GcRun(collections, Math.max(0, to - from));
    }
  }
}
