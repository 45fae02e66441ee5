package org.perflab.changes;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.perflab.eventlog.redact.Redactor;

/**
 * An effective Spark property whose value differs between a baseline run and a later run, with the mechanism
 * through which it can change the run's time. For the Java-options properties ({@code spark.executor.extraJavaOptions}
 * and the like) the values are their JVM flags that act on time ({@link JvmFlags}), {@code (none)} where the property
 * sets none.
 *
 * @param key the property, e.g. {@code spark.executor.instances}, or {@link RunProfile#SPARK_VERSION}
 * @param before the baseline's value; null when unset
 * @param after the run's value; null when unset
 * @param mechanism how it acts on the run
 * @param beforeDefault where {@code before} is unset, Spark's default under the baseline's version
 *     ({@link PropertyValues#defaultOf}); else null
 * @param afterDefault the same for {@code after}
 */
public record PropertyChange(String key, String before, String after, Mechanism mechanism, String beforeDefault,
    String afterDefault) {
  /** A change between two set values, or one whose unset side has no default PerfLab knows. */
  public PropertyChange(String key, String before, String after, Mechanism mechanism) {
    this(key, before, after, mechanism, null, null);
  }

  /**
   * The order in which changes are worth reading, when one line must stand for them all: the Spark version, then
   * {@code spark.master}, then by mechanism (slots, memory, the plan's settings, partitions, shuffle, the rest), each
   * by key. {@link #between} returns them by key.
   */
  public static final Comparator<PropertyChange> HEADLINE = Comparator.comparingInt(PropertyChange::headlineRank)
      .thenComparing(PropertyChange::key);

  private int headlineRank() {
    if (key.equals(SparkMaster.KEY)) {
      return 1;
    }
    return switch (mechanism) {
      case VERSION -> 0;
      case CORES -> 2;
      case MEMORY -> 3;
      case PLAN -> 4;
      case PARTITIONS -> 5;
      case SHUFFLE -> 6;
      case OTHER -> 7;
    };
  }

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

  /**
   * Properties that differ on every run (ids, hosts, ports, times, paths) or only label it. Not among them: the
   * driver's place ({@code spark.submit.deployMode}) and the file systems' settings ({@code spark.hadoop.fs.*}, such as
   * an S3A committer or its connection pool), which act on the run; only the default file system, which names a
   * cluster, is.
   */
  private static final Pattern IGNORED = Pattern.compile(
      "spark\\.app\\.(id|name|startTime|submitTime|attempt\\.id)|spark\\.driver\\.(host|port|bindAddress|appUIAddress)"
          + "|spark\\.executor\\.id|spark\\.ui\\..*|spark\\.eventLog\\..*|spark\\.perflab\\..*|spark\\.jars.*"
          + "|spark\\.files|spark\\.repl\\..*|spark\\.sql\\.warehouse\\.dir|spark\\.local\\.dir|.*\\.port"
          + "|spark\\.submit\\.(?!deployMode$).*|spark\\.yarn\\.(app|tags).*"
          + "|spark\\.kubernetes\\.(driver\\.pod|executor\\.podNamePrefix).*"
          + "|spark\\.hadoop\\.fs\\.defaultFS|spark\\.master\\.rest.*|spark\\.org\\..*"
          + "|spark\\.app\\.initial\\..*|spark\\.sql\\.execution\\.id");

  /** Values that name one run: UUIDs, random directory names, host:port URIs, application ids. */
  private static final Pattern VOLATILE = Pattern.compile(
      ".*([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-.*|://[^/]*:\\d{2,5}.*|(app|local|application)[-_]\\d{6,}.*)");

  /**
   * The properties that Spark reads differently in {@code before} and {@code after}, by key: each side's value as
   * Spark reads it under that side's Spark version ({@link RunProfile#SPARK_VERSION}), so that a value spelled
   * otherwise ({@code 1g}, {@code 1024m}) or set to Spark's default is no change ({@link PropertyValues#effective});
   * labels, ids, ports and values that name one run (UUIDs, host:port URIs, application ids) left out, except in the
   * properties whose reading PerfLab knows: {@code spark.master} is compared by what it configures
   * ({@link SparkMaster#configured}: the cluster manager, or local mode's threads), not by its address.
   */
  public static List<PropertyChange> between(Map<String, String> before, Map<String, String> after) {
    TreeSet<String> keys = new TreeSet<>(before.keySet());
    keys.addAll(after.keySet());
    keys.addAll(PropertyValues.knownKeys()); // unset in both runs, read differently by their Spark versions
    String versionBefore = before.get(RunProfile.SPARK_VERSION);
    String versionAfter = after.get(RunProfile.SPARK_VERSION);
    List<PropertyChange> out = new ArrayList<>();
    for (String key : keys) {
      String b = before.get(key);
      String a = after.get(key);
      if (JvmFlags.isJavaOptions(key)) {
        if (!JvmFlags.of(b).equals(JvmFlags.of(a))) {
          out.add(new PropertyChange(key, JvmFlags.shown(b), JvmFlags.shown(a), mechanismOf(key)));
        }
        continue;
      }
      // a property PerfLab knows is compared as Spark reads it, whatever in its value names one run: spark.master by
      // its cluster manager, not its address
      boolean known = PropertyValues.knownKeys().contains(key);
      if (IGNORED.matcher(key).matches() || !known && (volatileValue(b) || volatileValue(a))) {
        continue;
      }
      boolean version = key.equals(RunProfile.SPARK_VERSION);
      if (version ? !Objects.equals(b, a) : !Objects.equals(PropertyValues.effective(key, b, versionBefore),
          PropertyValues.effective(key, a, versionAfter))) {
        out.add(new PropertyChange(key, b, a, mechanismOf(key),
            b == null && !version ? PropertyValues.defaultOf(key, versionBefore) : null,
            a == null && !version ? PropertyValues.defaultOf(key, versionAfter) : null));
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
    if (JvmFlags.isJavaOptions(key)) {
      return JvmFlags.isExecutors(key) ? Mechanism.MEMORY : Mechanism.OTHER;
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
   * The {@code --conf} that restores the baseline's value (Spark's default where the baseline left it unset and
   * the default is known), or the property to unset. A baseline value redacted at
   * ingest ({@link Redactor#REDACTED}) is named, not given: a {@code --conf} with the redaction text as its value would
   * set the secret to that text.
   */
  public String restore() {
    if (JvmFlags.isJavaOptions(key)) {
      return before == null || before.equals(JvmFlags.NONE) ? "remove the JVM flags " + after + " from " + key
          : "restore the baseline's JVM flags in " + key + ": " + before;
    }
    if (before == null) {
      return beforeDefault == null ? "unset " + key : "--conf " + key + "=" + beforeDefault;
    }
    if (key.equals(RunProfile.SPARK_VERSION)) {
      return "run on Spark " + before;
    }
    if (Redactor.REDACTED.equals(before)) {
      return "restore the baseline's value of " + key + " (redacted in its event log: not shown)";
    }
    return key.equals(SparkMaster.KEY) ? "--master " + before : "--conf " + key + "=" + before;
  }

  /** {@code key before -> after}; an unset side reads {@code 200 (default)}, or {@code unset} without a default. */
  public String describe() {
    return key + " " + Objects.requireNonNullElse(shownBefore(), "unset") + " -> "
        + Objects.requireNonNullElse(shownAfter(), "unset");
  }

  /** The baseline's value; where unset, Spark's default followed by {@code " (default)"}, else null. */
  public String shownBefore() {
    return shown(before, beforeDefault);
  }

  /** The run's value; where unset, Spark's default followed by {@code " (default)"}, else null. */
  public String shownAfter() {
    return shown(after, afterDefault);
  }

  private static String shown(String value, String sparkDefault) {
    return value != null || sparkDefault == null ? value : sparkDefault + " (default)";
  }
}
