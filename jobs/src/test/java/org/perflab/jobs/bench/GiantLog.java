package org.perflab.jobs.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.luben.zstd.ZstdOutputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes a valid Spark event log of one application with any number of tasks by expanding a real log's events: every
 * stage that ran keeps its share of the template's tasks, scaled to {@code tasks} in all; its task events are the
 * template's successful task events cycled, with new task ids, partition indices 0..n-1 and launch times spread over
 * the template stage's launches (durations as in the template, so no task finishes after its stage). Every other
 * event is the template's, with the new application id and each stage's (and its RDDs') declared task count set to
 * its new count, so the log's task counts reconcile. Streams: only the template is held, never the tasks.
 *
 * <p>A benchmark and test utility (issue 26, "Any application size"); not a test itself.
 */
public final class GiantLog {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern FIELD = Pattern.compile("\"(Task ID|Index|Partition ID|Launch Time|Finish Time)\":(\\d+)");

  private final List<String> lines;
  private final String templateAppId;
  /** Per stage id that ran: its template successful (TaskStart, TaskEnd) pairs, launch order. */
  private final Map<Integer, List<TaskTemplate>> stageTasks = new TreeMap<>();

  private GiantLog(List<String> lines) throws IOException {
    this.lines = lines;
    String appId = null;
    Map<Long, String> starts = new LinkedHashMap<>();
    for (String line : lines) {
      JsonNode event = JSON.readTree(line);
      String type = event.path("Event").asText();
      if (type.equals("SparkListenerApplicationStart")) {
        appId = event.path("App ID").asText();
      } else if (type.equals("SparkListenerTaskStart")) {
        starts.put(event.path("Task Info").path("Task ID").asLong(), line);
      } else if (type.equals("SparkListenerTaskEnd")
          && event.path("Task End Reason").path("Reason").asText().equals("Success")) {
        String start = starts.get(event.path("Task Info").path("Task ID").asLong());
        if (start != null) {
          stageTasks.computeIfAbsent(event.path("Stage ID").asInt(), k -> new ArrayList<>())
              .add(new TaskTemplate(start, line, event.path("Task Info").path("Launch Time").asLong(),
                  event.path("Task Info").path("Finish Time").asLong()));
        }
      }
    }
    if (appId == null || stageTasks.isEmpty()) {
      throw new IllegalArgumentException("Cannot expand the template: it needs an application start and a successful"
          + " task (" + lines.size() + " lines)");
    }
    this.templateAppId = appId;
  }

  /** One template task: its two events and times. */
  private record TaskTemplate(String start, String end, long launchMs, long finishMs) {}

  /** The template read from a plain (uncompressed) event log file. */
  public static GiantLog template(Path plainLog) throws IOException {
    return new GiantLog(Files.readAllLines(plainLog, StandardCharsets.UTF_8).stream().filter(l -> !l.isBlank())
        .toList());
  }

  /**
   * Writes the expanded log of {@code tasks} tasks as application {@code appId} into {@code dir}, zstd-compressed
   * ({@code <appId>.zstd}, as Spark's {@code spark.eventLog.compress}); returns the file.
   */
  public Path write(Path dir, String appId, long tasks) throws IOException {
    Map<Integer, Long> counts = counts(tasks);
    Path file = dir.resolve(appId + ".zstd");
    Files.createDirectories(dir);
    long[] nextTaskId = {1_000_000L};
    try (OutputStream raw = new ZstdOutputStream(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16));
        Writer out = new OutputStreamWriter(raw, StandardCharsets.UTF_8)) {
      for (String line : lines) {
        JsonNode event = JSON.readTree(line);
        String type = event.path("Event").asText();
        if (type.equals("SparkListenerTaskStart") || type.equals("SparkListenerTaskEnd")) {
          continue;
        }
        if (type.equals("SparkListenerStageCompleted")) {
          int stage = event.path("Stage Info").path("Stage ID").asInt();
          if (counts.containsKey(stage)) {
            writeTasks(out, stageTasks.get(stage), counts.get(stage), nextTaskId);
          }
        }
        out.write(rewrite(event, counts, appId));
        out.write('\n');
      }
    }
    return file;
  }

  /** Each stage's new task count: its share of the template's successful tasks, at least 1, summing to {@code n}. */
  private Map<Integer, Long> counts(long n) {
    long template = stageTasks.values().stream().mapToLong(List::size).sum();
    Map<Integer, Long> counts = new TreeMap<>();
    long given = 0;
    int last = ((TreeMap<Integer, List<TaskTemplate>>) stageTasks).lastKey();
    for (Map.Entry<Integer, List<TaskTemplate>> e : stageTasks.entrySet()) {
      long c = e.getKey() == last ? Math.max(1, n - given) : Math.max(1, n * e.getValue().size() / template);
      counts.put(e.getKey(), c);
      given += c;
    }
    return counts;
  }

  private static void writeTasks(Writer out, List<TaskTemplate> templates, long n, long[] nextTaskId)
      throws IOException {
    long first = templates.stream().mapToLong(TaskTemplate::launchMs).min().orElseThrow();
    long lastLaunch = templates.stream().mapToLong(TaskTemplate::launchMs).max().orElseThrow();
    List<String[]> starts = new ArrayList<>();
    List<String[]> ends = new ArrayList<>();
    for (TaskTemplate t : templates) {
      starts.add(split(t.start()));
      ends.add(split(t.end()));
    }
    StringBuilder line = new StringBuilder(8192);
    for (long k = 0; k < n; k++) {
      int j = (int) (k % templates.size());
      TaskTemplate t = templates.get(j);
      long launch = first + (lastLaunch - first) * k / n;
      long finish = launch + (t.finishMs() - t.launchMs());
      long id = nextTaskId[0]++;
      emit(out, line, starts.get(j), id, k, launch, 0);
      emit(out, line, ends.get(j), id, k, launch, finish);
    }
  }

  /** A task event's text split around the values of {@link #FIELD}: text, field, text, field, ..., text. */
  private static String[] split(String line) {
    List<String> parts = new ArrayList<>();
    Matcher m = FIELD.matcher(line);
    int from = 0;
    while (m.find()) {
      parts.add(line.substring(from, m.start(2)));
      parts.add(m.group(1));
      from = m.end(2);
    }
    parts.add(line.substring(from));
    return parts.toArray(new String[0]);
  }

  private static void emit(Writer out, StringBuilder line, String[] parts, long taskId, long index, long launch,
      long finish) throws IOException {
    line.setLength(0);
    for (int i = 0; i < parts.length; i++) {
      if (i % 2 == 0) {
        line.append(parts[i]);
      } else {
        line.append(switch (parts[i]) {
          case "Task ID" -> taskId;
          case "Index", "Partition ID" -> index;
          case "Launch Time" -> launch;
          default -> finish;
        });
      }
    }
    line.append('\n');
    out.append(line);
  }

  /** A non-task event with the new application id and the stages' (and their RDDs') new task counts. */
  private String rewrite(JsonNode event, Map<Integer, Long> counts, String appId) throws IOException {
    setCounts(event, counts);
    return JSON.writeValueAsString(event).replace(templateAppId, appId);
  }

  private void setCounts(JsonNode node, Map<Integer, Long> counts) {
    if (node.isObject()) {
      ObjectNode object = (ObjectNode) node;
      if (object.has("Stage ID") && object.has("Number of Tasks") && counts.containsKey(object.get("Stage ID").asInt())) {
        int stage = object.get("Stage ID").asInt();
        long declared = object.get("Number of Tasks").asLong();
        object.put("Number of Tasks", counts.get(stage));
        for (JsonNode rdd : object.path("RDD Info")) {
          if (rdd.path("Number of Partitions").asLong() == declared) {
            ((ObjectNode) rdd).put("Number of Partitions", counts.get(stage));
          }
        }
      }
      object.elements().forEachRemaining(child -> setCounts(child, counts));
    } else if (node.isArray()) {
      node.elements().forEachRemaining(child -> setCounts(child, counts));
    }
  }

  /**
   * {@code GiantLog TEMPLATE DIR APP_ID TASKS}: writes the expanded log; prints its path, size and seconds.
   */
  public static void main(String[] args) throws IOException {
    if (args.length != 4) {
      System.err.println("Usage: GiantLog TEMPLATE DIR APP_ID TASKS");
      System.exit(2);
    }
    long start = System.nanoTime();
    Path file = template(Path.of(args[0])).write(Path.of(args[1]), args[2], Long.parseLong(args[3]));
    System.out.printf("giant log: %s, %d tasks, %.1f MB zstd, %.1f s%n", file, Long.parseLong(args[3]),
        Files.size(file) / 1e6, (System.nanoTime() - start) / 1e9);
  }
}
