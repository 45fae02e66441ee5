package org.perflab.changes;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.perflab.eventlog.redact.Redactor;

/**
 * An effective Spark property whose value differs between a baseline run and a later run, with the mechanism
 * through which it can change the run's time.
 *
 * @param key the property, e.g. {@code spark.executor.instances}, or {@link RunProfile#SPARK_VERSION}
 * @param before the baseline's value; null when unset
 * @param after the run's value; null when unset
 * @param mechanism how it acts on the run
 */
public record PropertyChange(String key, String before, String after, Mechanism mechanism) {
  /** How a property acts on a run's time. */
  public enum Mechanism {
    /** Executors, cores, task slots. */
    CORES,
    /** Executor memory and its split: spill and GC. */
    MEMORY,
    /** Shuffle partitions and task sizes: more or fewer tasks. */
    PARTITIONS,
    /** Join strategy and adaptive execution: the physical plan. */
    PLAN,
    /** Codec, serializer, shuffle settings: the work per byte. */
    SHUFFLE,
    /** The Spark version. */
    VERSION,
    /** Any other property. */
    OTHER
  }

  /** Properties that differ on every run (ids, hosts, ports, times, paths) or only label it. */
  private static final Pattern IGNORED = Pattern.compile(
      "spark\\.app\\.(id|name|startTime|submitTime|attempt\\.id)|spark\\.driver\\.(host|port|bindAddress|appUIAddress)"
          + "|spark\\.executor\\.id|spark\\.ui\\..*|spark\\.eventLog\\..*|spark\\.perflab\\..*|spark\\.jars.*"
          + "|spark\\.files|spark\\.repl\\..*|spark\\.sql\\.warehouse\\.dir|spark\\.local\\.dir|.*\\.port"
          + "|spark\\.submit\\..*|spark\\.yarn\\.(app|tags).*|spark\\.kubernetes\\.(driver\\.pod|executor\\.podNamePrefix).*"
          + "|spark\\.hadoop\\.fs\\..*|spark\\.master\\.rest.*|spark\\.org\\..*|spark\\.driver\\.extraJavaOptions"
          + "|spark\\.executor\\.extraJavaOptions|spark\\.app\\.initial\\..*|spark\\.sql\\.execution\\.id");

  /** Values that name one run: UUIDs, random directory names, host:port URIs, application ids. */
  private static final Pattern VOLATILE = Pattern.compile(
      ".*([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-.*|://[^/]*:\\d{2,5}.*|(app|local|application)[-_]\\d{6,}.*)");

  /**
   * The properties that differ between {@code before} and {@code after}, by key; labels, ids, ports and values that
   * name one run (UUIDs, host:port URIs, application ids) left out.
   */
  public static List<PropertyChange> between(Map<String, String> before, Map<String, String> after) {
    TreeSet<String> keys = new TreeSet<>(before.keySet());
    keys.addAll(after.keySet());
    List<PropertyChange> out = new ArrayList<>();
    for (String key : keys) {
      String b = before.get(key);
      String a = after.get(key);
      if (!Objects.equals(b, a) && !IGNORED.matcher(key).matches() && !volatileValue(b) && !volatileValue(a)) {
        out.add(new PropertyChange(key, b, a, mechanismOf(key)));
      }
    }
    return out;
  }

  private static boolean volatileValue(String value) {
    return value != null && VOLATILE.matcher(value).matches();
  }

  /** The mechanism a property acts through. */
  public static Mechanism mechanismOf(String key) {
    String k = key.toLowerCase(Locale.ROOT);
    if (k.equals(RunProfile.SPARK_VERSION)) {
      return Mechanism.VERSION;
    }
    if (k.matches("spark\\.executor\\.(instances|cores)|spark\\.cores\\.max|spark\\.task\\.cpus"
        + "|spark\\.dynamicallocation\\..*|spark\\.master|spark\\.deploy\\..*")) {
      return Mechanism.CORES;
    }
    if (k.matches("spark\\.(executor|driver)\\.memory.*|spark\\.memory\\..*|spark\\.executor\\.pyspark\\.memory")) {
      return Mechanism.MEMORY;
    }
    if (k.matches("spark\\.sql\\.autobroadcastjointhreshold|spark\\.sql\\.join\\..*|spark\\.sql\\.adaptive\\.enabled"
        + "|spark\\.sql\\.cbo\\..*|spark\\.sql\\.adaptive\\.autobroadcastjointhreshold")) {
      return Mechanism.PLAN;
    }
    if (k.matches("spark\\.sql\\.shuffle\\.partitions|spark\\.default\\.parallelism|spark\\.sql\\.files\\..*"
        + "|spark\\.sql\\.adaptive\\..*")) {
      return Mechanism.PARTITIONS;
    }
    if (k.matches("spark\\.(io\\.compression|serializer|shuffle|rdd\\.compress|kryo|broadcast)\\b.*")) {
      return Mechanism.SHUFFLE;
    }
    return Mechanism.OTHER;
  }

  /**
   * The {@code --conf} that restores the baseline's value, or the property to unset. A baseline value redacted at
   * ingest ({@link Redactor#REDACTED}) is named, not given: a {@code --conf} with the redaction text as its value would
   * set the secret to that text.
   */
  public String restore() {
    if (before == null) {
      return "unset " + key;
    }
    if (key.equals(RunProfile.SPARK_VERSION)) {
      return "run on Spark " + before;
    }
    return Redactor.REDACTED.equals(before)
        ? "restore the baseline's value of " + key + " (redacted in its event log: not shown)"
        : "--conf " + key + "=" + before;
  }

  /** {@code key before -> after}. */
  public String describe() {
    return key + " " + (before == null ? "unset" : before) + " -> " + (after == null ? "unset" : after);
  }
}
