package org.perflab.eventlog.source;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Spark's file-naming rules for event logs (see Spark's {@code EventLogFileWriter}). */
final class LogNames {
  static final String IN_PROGRESS = ".inprogress";
  static final String COMPACTED = ".compact";
  static final String ROLLING_DIR_PREFIX = "eventlog_v2_";
  static final String APP_STATUS_PREFIX = "appstatus_";
  static final String LEGACY_LOG_PREFIX = "EVENT_LOG_";
  static final String LEGACY_VERSION_PREFIX = "SPARK_VERSION_";
  static final String LEGACY_CODEC_PREFIX = "COMPRESSION_CODEC_";
  static final String LEGACY_COMPLETE = "APPLICATION_COMPLETE";

  private static final Pattern ROLLING_PART = Pattern.compile("events_(\\d{1,18})_.*");
  private static final Pattern LEGACY_PART = Pattern.compile("EVENT_LOG_(\\d{1,18})");

  /** Compression suffixes that Spark never writes; a file carrying one is skipped rather than misread. */
  private static final Set<String> FOREIGN_CODECS =
      Set.of("gz", "gzip", "bz2", "xz", "lzma", "zip", "z", "deflate", "zlib", "lzo", "br", "7z", "tgz", "tar", "sz");

  private LogNames() {}

  /**
   * Whether Hadoop tools treat the name as hidden or as a side file ({@code _x}, {@code .x}, {@code x.crc}), or it is
   * the memory telemetry PerfLab's plugin writes beside an event log ({@code x.perflab-telemetry}, read by the
   * {@code memory} job, not by ingest).
   */
  static boolean isIgnored(String name) {
    return name.startsWith("_") || name.startsWith(".") || name.endsWith(".crc") || name.endsWith(".perflab-telemetry");
  }

  static boolean isRollingDirectory(String name) {
    return name.startsWith(ROLLING_DIR_PREFIX);
  }

  /** The index n of a rolling part {@code events_<n>_...}, or -1. */
  static long rollingIndex(String name) {
    Matcher m = ROLLING_PART.matcher(name);
    return m.matches() ? Long.parseLong(m.group(1)) : -1;
  }

  /** The index n of a legacy part {@code EVENT_LOG_<n>}, or -1. */
  static long legacyIndex(String name) {
    Matcher m = LEGACY_PART.matcher(name);
    return m.matches() ? Long.parseLong(m.group(1)) : -1;
  }

  /**
   * The suffix after the last dot, once {@code .inprogress} and {@code .compact} are removed, lower case; empty when
   * there is none. Spark sanitises application ids to contain no dots, so this is the codec suffix.
   */
  static String suffix(String name) {
    String base = stripSuffix(stripSuffix(name, COMPACTED), IN_PROGRESS);
    int dot = base.lastIndexOf('.');
    return dot <= 0 ? "" : base.substring(dot + 1).toLowerCase(Locale.ROOT);
  }

  /**
   * The codec a file name announces: a Spark codec suffix, or {@link LogCompression#NONE} for no or any other suffix (such
   * as {@code .json}); null when the suffix names a compression that Spark does not write (such as {@code .gz}).
   */
  static LogCompression codecOf(String name) {
    String suffix = suffix(name);
    if (FOREIGN_CODECS.contains(suffix)) {
      return null;
    }
    return LogCompression.fromShortName(suffix).orElse(LogCompression.NONE);
  }

  static String unsupportedCodecReason(String name) {
    return "Cannot read event log: unsupported codec suffix (." + suffix(name) + "; supported: " + LogCompression.SUPPORTED + ")";
  }

  private static String stripSuffix(String name, String suffix) {
    return name.endsWith(suffix) ? name.substring(0, name.length() - suffix.length()) : name;
  }
}
