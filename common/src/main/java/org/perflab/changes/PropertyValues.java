package org.perflab.changes;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.spark.network.util.ByteUnit;
import org.apache.spark.network.util.JavaUtils;
import org.perflab.costmodel.Codec;
import org.perflab.costmodel.CostConfig;
import org.perflab.costmodel.SerializerKind;
import org.perflab.errors.BadInputException;
import org.perflab.eventlog.SparkVersion;
import org.perflab.findings.FindingLimits;
import org.perflab.memory.MemoryManager;
import org.perflab.memory.StaticMemorySettings;

/**
 * A Spark property's value as Spark reads it, so that two runs' values are compared for what they do and not for how
 * they are spelled: Spark's default where a run left a property unset (for the properties that act on a run's time,
 * by the run's Spark version), sizes in bytes and durations in milliseconds (a bare number in the unit Spark gives it:
 * {@code spark.executor.memory=1024} is 1 GiB), booleans in lower case, codecs and serializers by what they name
 * ({@code org.apache.spark.io.LZ4CompressionCodec} is {@code lz4}), a master by its cluster manager
 * ({@code spark://a:7077} and {@code spark://b:7077} are both a standalone cluster). Defaults and units from Spark's
 * configuration documentation (spark.apache.org/docs/latest/configuration.html) and its changes of default:
 * {@code spark.io.compression.codec} lz4 from 2.0 (SPARK-12388; snappy before), {@code spark.memory.fraction} 0.6 from
 * 2.0 (SPARK-15796; 0.75 in 1.6), {@code spark.sql.adaptive.enabled} true from 3.2 (SPARK-33679).
 */
public final class PropertyValues {
  private PropertyValues() {}

  /** What a property's value is: the unit of a bare number, for sizes and durations. */
  enum Kind {
    BYTES, KIB, MIB, MILLIS, SECONDS, BOOLEAN, NUMBER, CODEC, SERIALIZER,
    /** A master URL, by what it configures ({@link SparkMaster#configured}), not by its address. */
    MASTER
  }

  /**
   * A known property: its kind, its default from Spark {@code since} on (major × 100 + minor), the default of the
   * versions from {@code introduced} to {@code since}, and none before {@code introduced} (the property did not exist).
   */
  private record Known(Kind kind, String value, int since, String older, int introduced) {
    static Known of(Kind kind, String value) {
      return new Known(kind, value, 0, null, 0);
    }

    /** The default under {@code version} (major × 100 + minor; -1 when unknown: the latest). */
    String defaultAt(int version) {
      if (version < 0) {
        return value;
      }
      if (version < introduced) {
        return null;
      }
      return version >= since ? value : older;
    }
  }

  private static final Map<String, Known> KNOWN = Map.ofEntries(
      Map.entry("spark.executor.memory", Known.of(Kind.MIB, "1g")),
      Map.entry("spark.driver.memory", Known.of(Kind.MIB, "1g")),
      Map.entry("spark.executor.memoryOverhead", Known.of(Kind.MIB, null)),
      Map.entry("spark.driver.memoryOverhead", Known.of(Kind.MIB, null)),
      Map.entry("spark.yarn.executor.memoryOverhead", Known.of(Kind.MIB, null)),
      Map.entry("spark.executor.pyspark.memory", Known.of(Kind.MIB, null)),
      Map.entry("spark.reducer.maxSizeInFlight", Known.of(Kind.MIB, "48m")),
      Map.entry("spark.kryoserializer.buffer.max", Known.of(Kind.MIB, "64m")),
      Map.entry("spark.kryoserializer.buffer", Known.of(Kind.KIB, "64k")),
      Map.entry("spark.shuffle.file.buffer", Known.of(Kind.KIB, "32k")),
      Map.entry("spark.broadcast.blockSize", Known.of(Kind.KIB, "4m")),
      Map.entry("spark.memory.offHeap.size", Known.of(Kind.BYTES, "0")),
      Map.entry("spark.sql.autoBroadcastJoinThreshold", Known.of(Kind.BYTES, "10MB")),
      Map.entry("spark.sql.adaptive.autoBroadcastJoinThreshold", Known.of(Kind.BYTES, null)),
      Map.entry("spark.sql.files.maxPartitionBytes", Known.of(Kind.BYTES, "128MB")),
      Map.entry("spark.sql.files.openCostInBytes", Known.of(Kind.BYTES, "4MB")),
      Map.entry("spark.sql.adaptive.advisoryPartitionSizeInBytes", new Known(Kind.BYTES, "64MB", 0, null, 300)),
      Map.entry("spark.io.compression.lz4.blockSize", Known.of(Kind.BYTES, "32k")),
      Map.entry("spark.io.compression.zstd.bufferSize", Known.of(Kind.BYTES, "32k")),
      Map.entry("spark.network.timeout", Known.of(Kind.SECONDS, "120s")),
      Map.entry("spark.sql.broadcastTimeout", Known.of(Kind.SECONDS, "300")),
      Map.entry("spark.dynamicAllocation.executorIdleTimeout", Known.of(Kind.SECONDS, "60s")),
      Map.entry("spark.dynamicAllocation.schedulerBacklogTimeout", Known.of(Kind.SECONDS, "1s")),
      Map.entry("spark.locality.wait", Known.of(Kind.MILLIS, "3s")),
      Map.entry("spark.executor.heartbeatInterval", Known.of(Kind.MILLIS, "10s")),
      Map.entry("spark.sql.adaptive.enabled", new Known(Kind.BOOLEAN, "true", 302, "false", 0)),
      Map.entry("spark.sql.adaptive.coalescePartitions.enabled", new Known(Kind.BOOLEAN, "true", 0, null, 300)),
      Map.entry("spark.sql.adaptive.skewJoin.enabled", new Known(Kind.BOOLEAN, "true", 0, null, 300)),
      Map.entry("spark.sql.join.preferSortMergeJoin", Known.of(Kind.BOOLEAN, "true")),
      Map.entry("spark.sql.cbo.enabled", Known.of(Kind.BOOLEAN, "false")),
      Map.entry("spark.shuffle.compress", Known.of(Kind.BOOLEAN, "true")),
      Map.entry("spark.shuffle.spill.compress", Known.of(Kind.BOOLEAN, "true")),
      Map.entry("spark.broadcast.compress", Known.of(Kind.BOOLEAN, "true")),
      Map.entry("spark.rdd.compress", Known.of(Kind.BOOLEAN, "false")),
      Map.entry("spark.dynamicAllocation.enabled", Known.of(Kind.BOOLEAN, "false")),
      Map.entry("spark.shuffle.service.enabled", Known.of(Kind.BOOLEAN, "false")),
      Map.entry("spark.memory.offHeap.enabled", Known.of(Kind.BOOLEAN, "false")),
      Map.entry("spark.speculation", Known.of(Kind.BOOLEAN, "false")),
      Map.entry("spark.sql.shuffle.partitions",
          Known.of(Kind.NUMBER, Integer.toString(FindingLimits.DEFAULT_SHUFFLE_PARTITIONS))),
      Map.entry("spark.task.cpus", Known.of(Kind.NUMBER, "1")),
      Map.entry("spark.task.maxFailures", Known.of(Kind.NUMBER, "4")),
      Map.entry("spark.shuffle.sort.bypassMergeThreshold",
          Known.of(Kind.NUMBER, Integer.toString(CostConfig.DEFAULT_BYPASS_THRESHOLD))),
      Map.entry(MemoryManager.MEMORY_FRACTION_KEY, new Known(Kind.NUMBER,
          Double.toString(MemoryManager.MEMORY_FRACTION), MemoryManager.MEMORY_FRACTION_SINCE,
          Double.toString(MemoryManager.MEMORY_FRACTION_1_6), MemoryManager.UNIFIED_SINCE)),
      Map.entry(MemoryManager.STORAGE_FRACTION_KEY, new Known(Kind.NUMBER,
          Double.toString(MemoryManager.STORAGE_FRACTION), 0, null, MemoryManager.UNIFIED_SINCE)),
      Map.entry(MemoryManager.LEGACY_MODE_KEY,
          new Known(Kind.BOOLEAN, "false", 0, null, MemoryManager.UNIFIED_SINCE)),
      // The static manager's, read before 1.6 and in legacy mode (StaticMemorySettings).
      Map.entry(MemoryManager.STATIC_STORAGE_FRACTION_KEY,
          Known.of(Kind.NUMBER, Double.toString(MemoryManager.STATIC_STORAGE_FRACTION))),
      Map.entry(MemoryManager.STATIC_SHUFFLE_FRACTION_KEY,
          Known.of(Kind.NUMBER, Double.toString(MemoryManager.STATIC_SHUFFLE_FRACTION))),
      Map.entry("spark.storage.safetyFraction",
          Known.of(Kind.NUMBER, Double.toString(StaticMemorySettings.STORAGE_SAFETY))),
      Map.entry("spark.shuffle.safetyFraction",
          Known.of(Kind.NUMBER, Double.toString(StaticMemorySettings.SHUFFLE_SAFETY))),
      Map.entry("spark.io.compression.codec",
          new Known(Kind.CODEC, Codec.LZ4.shortName(), Codec.LZ4_DEFAULT_SINCE, Codec.SNAPPY.shortName(), 0)),
      Map.entry("spark.serializer", Known.of(Kind.SERIALIZER, SerializerKind.JAVA.className())),
      Map.entry(SparkMaster.KEY, Known.of(Kind.MASTER, null)));

  private static final Pattern BARE_NUMBER = Pattern.compile("[+-]?\\d+");

  /** The properties whose default PerfLab knows (or knows to depend on the cluster). */
  public static Set<String> knownKeys() {
    return KNOWN.keySet();
  }

  /**
   * Spark's default for {@code key} under {@code sparkVersion} ("3.5.1"; null or unreadable: the latest), as Spark's
   * documentation spells it; null when PerfLab does not know it (or it depends on the cluster, as
   * {@code spark.executor.cores} and {@code spark.executor.memoryOverhead} do).
   */
  public static String defaultOf(String key, String sparkVersion) {
    Known known = KNOWN.get(key);
    return known == null ? null : known.defaultAt(version(sparkVersion));
  }

  /**
   * {@code value} of {@code key} as Spark reads it under {@code sparkVersion}: Spark's default when {@code value} is
   * null ({@link #defaultOf}; null when unknown), then one spelling per meaning. A value Spark could not read is kept
   * as given (trimmed): two such values differ when their text does.
   */
  public static String effective(String key, String value, String sparkVersion) {
    String v = value == null ? defaultOf(key, sparkVersion) : value;
    if (v == null) {
      return null;
    }
    v = v.trim();
    Known known = KNOWN.get(key);
    if (known == null) {
      String lower = v.toLowerCase(Locale.ROOT);
      return lower.equals("true") || lower.equals("false") ? lower : v;
    }
    try {
      return switch (known.kind()) {
        case BYTES -> bytes(v, ByteUnit.BYTE);
        case KIB -> bytes(v, ByteUnit.KiB);
        case MIB -> bytes(v, ByteUnit.MiB);
        case MILLIS -> millis(v, 1);
        case SECONDS -> millis(v, 1000);
        case BOOLEAN -> v.toLowerCase(Locale.ROOT);
        case NUMBER -> new BigDecimal(v).stripTrailingZeros().toPlainString();
        case CODEC -> Codec.parse(v).shortName();
        case SERIALIZER -> SerializerKind.parse(v).className();
        case MASTER -> SparkMaster.configured(v);
      };
    } catch (IllegalArgumentException | ArithmeticException | BadInputException e) {
      return v;
    }
  }

  /** Bytes; a bare number in {@code unit}; any negative size (a threshold turned off) is -1. */
  private static String bytes(String v, ByteUnit unit) {
    if (v.startsWith("-")) {
      return "-1";
    }
    long bytes = BARE_NUMBER.matcher(v).matches()
        ? unit.toBytes(Long.parseLong(v)) : JavaUtils.byteStringAsBytes(v.toLowerCase(Locale.ROOT));
    return Long.toString(bytes);
  }

  /** Milliseconds; a bare number in units of {@code bareMs} milliseconds. */
  private static String millis(String v, long bareMs) {
    long ms = BARE_NUMBER.matcher(v).matches()
        ? Math.multiplyExact(Long.parseLong(v), bareMs) : JavaUtils.timeStringAsMs(v.toLowerCase(Locale.ROOT));
    return Long.toString(ms);
  }

  /** major × 100 + minor; -1 when null or unreadable ({@link SparkVersion#minor}). */
  static int version(String sparkVersion) {
    return SparkVersion.minor(sparkVersion);
  }
}
