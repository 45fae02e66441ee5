package org.perflab.eventlog.source;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * One event log as found by {@link LogDiscovery}, small enough to ship to Spark executors.
 *
 * @param path the log's identity: the fully-qualified URI of the file, or of the directory for a rolling or legacy log
 * @param layout how the log is laid out
 * @param parts fully-qualified URIs of the files holding the events, in read order (never empty)
 * @param bytes sum of the parts' sizes on the file system (compressed), in bytes
 * @param modificationTimeMs latest modification time over the parts, epoch milliseconds
 * @param codec compression of every part
 * @param inProgress whether the writer had not finished the log ({@code .inprogress} suffix, an
 *     {@code appstatus_*.inprogress} marker, or no {@code APPLICATION_COMPLETE} marker)
 * @param sparkVersionHint the Spark version the layout records (legacy {@code SPARK_VERSION_<v>} marker), or null
 */
public record EventLogSource(
    String path,
    LogLayout layout,
    List<String> parts,
    long bytes,
    long modificationTimeMs,
    LogCompression codec,
    boolean inProgress,
    String sparkVersionHint)
    implements Serializable {

  public EventLogSource {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(layout, "layout");
    Objects.requireNonNull(codec, "codec");
    parts = List.copyOf(parts);
    if (parts.isEmpty()) {
      throw new IllegalArgumentException("Cannot describe event log: it has no parts (" + path + ")");
    }
  }

  /** A stable 16-hex-digit id for this log: the first 8 bytes of the SHA-256 of {@link #path()} in UTF-8. */
  public String logId() {
    return logIdOf(path);
  }

  /** The id {@link #logId()} gives a log at {@code path}; also used for files that are skipped, not parsed. */
  public static String logIdOf(String path) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(path.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }
}
