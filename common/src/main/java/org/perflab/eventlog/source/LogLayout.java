package org.perflab.eventlog.source;

/** How an event log is laid out on a file system. */
public enum LogLayout {
  /** One file, {@code <appId>[_<attemptId>][.<codec>][.inprogress]} (Spark 1.3 and later). */
  SINGLE_FILE,
  /** A directory {@code eventlog_v2_<appId>} of parts {@code events_<n>_<appId>[.<codec>]} (Spark 3.0 and later). */
  ROLLING_DIRECTORY,
  /** A Spark 1.0-1.2 directory with {@code EVENT_LOG_<n>} files and marker files. */
  LEGACY_DIRECTORY
}
