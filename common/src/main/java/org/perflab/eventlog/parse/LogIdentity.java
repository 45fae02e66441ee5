package org.perflab.eventlog.parse;

import java.io.Serializable;

/**
 * What the parser needs to know about the log it reads, apart from its lines.
 *
 * @param logId stable id of the log, written into every row
 * @param path fully qualified path of the log file or directory
 * @param layout SINGLE_FILE, ROLLING_DIRECTORY or LEGACY_DIRECTORY
 * @param codec NONE, LZ4, LZF, SNAPPY or ZSTD
 * @param bytes size on storage in bytes (sum of parts)
 * @param modificationTimeMs latest modification time of its parts, epoch ms
 * @param inProgress whether the log was still being written, so a truncated last line is expected
 * @param fallbackAppId application id to use until the ApplicationStart event names one (from the file name)
 * @param sparkVersionHint Spark version from the log's layout (legacy directories), or null
 */
public record LogIdentity(
    String logId,
    String path,
    String layout,
    String codec,
    long bytes,
    long modificationTimeMs,
    boolean inProgress,
    String fallbackAppId,
    String sparkVersionHint)
    implements Serializable {

  /**
   * Derives an application id from a log's file or directory name: strips the {@code eventlog_v2_} prefix of rolling
   * directories, the codec suffix and {@code .inprogress}.
   */
  public static String appIdFromPath(String path) {
    String name = path.replaceAll("/+$", "");
    name = name.substring(name.lastIndexOf('/') + 1);
    name = name.replaceFirst("^eventlog_v2_", "");
    name = name.replaceFirst("\\.inprogress$", "");
    name = name.replaceFirst("\\.(lz4|lzf|snappy|zstd)$", "");
    return name;
  }
}
