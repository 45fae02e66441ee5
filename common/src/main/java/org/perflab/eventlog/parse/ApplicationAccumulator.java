package org.perflab.eventlog.parse;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.network.util.JavaUtils;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.table.Table;
import org.perflab.table.TableRow;

/** The application attempt: identity, times, and its environment (redacted) with the executor settings in it. */
final class ApplicationAccumulator {
  /**
   * EnvironmentUpdate sections kept, by category: every section of the History Server's environment page that the
   * event holds, the class path included (its entries' paths as keys, how each was added as values).
   */
  private static final Map<String, String> SECTIONS =
      Map.of(
          "Spark Properties", "SPARK",
          "Hadoop Properties", "HADOOP",
          "System Properties", "SYSTEM",
          "JVM Information", "JVM",
          "Metrics Properties", "METRICS",
          "Classpath Entries", "CLASSPATH");
  /** The fields of an environment update that hold the sections read, as {@link SlimJson#readEnvironment} takes them. */
  static final Set<String> SECTION_FIELDS = SECTIONS.keySet();
  /** The one category stored per log: Spark properties differ per application (its id, name, start time, ports). */
  private static final String PER_LOG = "SPARK";
  /**
   * The category of the resource profiles ({@code SparkListenerResourceProfileAdded}, Spark 3.1+), the environment
   * page's "Resource Profiles": per profile and resource, one key per field of the History Server's REST API,
   * {@code <profile id>.executor.<resource>.amount|discoveryScript|vendor} and {@code <profile id>.task.<resource>.amount}.
   */
  static final String RESOURCE_PROFILES = "RESOURCE_PROFILES";
  /** An executor resource request's fields, as logged and as the REST API names them. */
  private static final Map<String, String> EXECUTOR_REQUEST =
      orderedPairs("Amount", "amount", "Discovery Script", "discoveryScript", "Vendor", "vendor");
  /** A task resource request's fields, as logged and as the REST API names them. */
  private static final Map<String, String> TASK_REQUEST = orderedPairs("Amount", "amount");

  String appId;
  String attemptId = "";
  String appName;
  String sparkVersion;
  String user;
  Long startTime;
  Long endTime;
  Long lastEventTime;
  boolean ended;
  long numJobs;
  long numStageAttempts;
  long numTaskAttempts;
  int maxConcurrentExecutors;
  int maxConcurrentCores;
  /** Redacted properties per category, in log order. */
  final Map<String, Map<String, String>> properties = new LinkedHashMap<>();

  ApplicationAccumulator(String fallbackAppId, String sparkVersionHint) {
    this.appId = fallbackAppId;
    this.sparkVersion = sparkVersionHint;
  }

  void observeTime(Long time) {
    if (time != null && time > 0 && (lastEventTime == null || time > lastEventTime)) {
      lastEventTime = time;
    }
  }

  /** An environment update read as a tree (its fields in any order): its sections' texts, as the other reads them. */
  void environmentUpdate(JsonNode event, Redactor redactor) {
    Map<String, Map<String, String>> sections = new HashMap<>();
    for (String field : SECTIONS.keySet()) {
      JsonNode values = Json.node(event, field);
      if (values != null && values.isObject()) {
        Map<String, String> texts = new LinkedHashMap<>();
        values.fields().forEachRemaining(value -> texts.put(value.getKey(), value.getValue().asText()));
        sections.put(field, texts);
      }
    }
    environmentUpdate(sections, redactor);
  }

  /**
   * An environment update's sections kept, redacted, by category, from their texts as {@link SlimJson#readEnvironment}
   * reads them without a tree.
   *
   * @param sections by section field, its keys and texts in log order; sections absent or not objects are absent
   */
  void environmentUpdate(Map<String, Map<String, String>> sections, Redactor redactor) {
    for (Map.Entry<String, String> section : SECTIONS.entrySet()) {
      Map<String, String> values = sections.get(section.getKey());
      if (values == null) {
        continue;
      }
      Map<String, String> redacted = properties.computeIfAbsent(section.getValue(), k -> new LinkedHashMap<>());
      values.forEach((key, value) -> redacted.put(key, redactor.redact(key, value)));
    }
  }

  /**
   * A resource profile, kept as {@link #RESOURCE_PROFILES} properties (redacted like the others): every field of its
   * executor and task resource requests, an empty text where Spark logged one.
   */
  void resourceProfileAdded(JsonNode event, Redactor redactor) {
    int id = Json.requireInt(event, "Resource Profile Id");
    Map<String, String> values = properties.computeIfAbsent(RESOURCE_PROFILES, k -> new LinkedHashMap<>());
    requests(id + ".executor.", Json.node(event, "Executor Resource Requests"), EXECUTOR_REQUEST, values, redactor);
    requests(id + ".task.", Json.node(event, "Task Resource Requests"), TASK_REQUEST, values, redactor);
  }

  private static void requests(String prefix, JsonNode requests, Map<String, String> fields,
      Map<String, String> values, Redactor redactor) {
    if (requests == null || !requests.isObject()) {
      return;
    }
    requests.fields().forEachRemaining(request -> fields.forEach((logged, name) -> {
      JsonNode value = request.getValue().get(logged);
      if (value != null && !value.isNull()) {
        String key = prefix + request.getKey() + "." + name;
        values.put(key, redactor.redact(key, value.asText()));
      }
    }));
  }

  private static Map<String, String> orderedPairs(String... pairs) {
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      map.put(pairs[i], pairs[i + 1]);
    }
    return map;
  }

  String sparkProperty(String key) {
    Map<String, String> spark = properties.get("SPARK");
    return spark == null ? null : spark.get(key);
  }

  /**
   * The environment's rows: SPARK properties (which differ per application) one row per key in {@code properties};
   * every other category as one {@code property_set_refs} row followed by its set's {@code property_sets} rows, which
   * the writer stores once per distinct set. A category without properties has no rows.
   */
  List<TableRow> propertyRows() {
    List<TableRow> rows = new ArrayList<>();
    properties.forEach((category, values) -> {
      if (values.isEmpty()) {
        return;
      }
      if (PER_LOG.equals(category)) {
        values.forEach((key, value) ->
            rows.add(Table.PROPERTIES.newRow().set("category", category).set("key", key).set("value", value)));
      } else {
        PropertySet set = new PropertySet(category, values);
        rows.add(set.refRow());
        rows.addAll(set.rows());
      }
    });
    return rows;
  }

  TableRow toRow(boolean logInProgress) {
    boolean completed = ended && !logInProgress;
    Long end = ended && endTime != null ? endTime : lastEventTime;
    return Table.APPLICATIONS
        .newRow()
        .set("app_name", appName != null ? appName : sparkProperty("spark.app.name"))
        .set("spark_version", sparkVersion)
        .set("master", sparkProperty("spark.master"))
        .set("deploy_mode", sparkProperty("spark.submit.deployMode"))
        .set("user", user)
        .set("start_time_ms", startTime)
        .set("end_time_ms", end)
        .set("duration_ms", Durations.between(startTime, end))
        .set("completed", completed)
        .set("end_time_derived", !(ended && endTime != null))
        .set("executor_instances", intSetting("spark.executor.instances"))
        .set("executor_cores", intSetting("spark.executor.cores"))
        .set("executor_memory_bytes", memorySetting("spark.executor.memory"))
        .set("executor_memory_overhead_bytes", memorySetting("spark.executor.memoryOverhead"))
        .set("driver_memory_bytes", memorySetting("spark.driver.memory"))
        .set("task_cpus", intSetting("spark.task.cpus"))
        .set("dynamic_allocation_enabled", Boolean.parseBoolean(sparkProperty("spark.dynamicAllocation.enabled")))
        .set("dynamic_allocation_min_executors", intSetting("spark.dynamicAllocation.minExecutors"))
        .set("dynamic_allocation_max_executors", intSetting("spark.dynamicAllocation.maxExecutors"))
        .set("max_concurrent_executors", maxConcurrentExecutors)
        .set("max_concurrent_cores", maxConcurrentCores)
        .set("num_jobs", numJobs)
        .set("num_stage_attempts", numStageAttempts)
        .set("num_task_attempts", numTaskAttempts)
        .set("perflab_workload", sparkProperty("spark.perflab.workload"))
        .set("perflab_scale", sparkProperty("spark.perflab.scale"))
        .set("perflab_repetition", intSetting("spark.perflab.repetition"))
        .set("perflab_grid_point", sparkProperty("spark.perflab.grid.point"))
        .set("perflab_input_bytes", longSetting("spark.perflab.input.bytes"));
  }

  private Integer intSetting(String key) {
    Long value = longSetting(key);
    return value == null ? null : value.intValue();
  }

  private Long longSetting(String key) {
    String value = sparkProperty(key);
    if (value == null) {
      return null;
    }
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** A Spark memory setting in bytes; a bare number means MiB, as Spark reads these settings. */
  private Long memorySetting(String key) {
    String value = sparkProperty(key);
    if (value == null) {
      return null;
    }
    try {
      return JavaUtils.byteStringAsMb(value.trim()) * 1024L * 1024L;
    } catch (RuntimeException e) {
      return null;
    }
  }
}
