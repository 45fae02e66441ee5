package org.perflab.eventlog.source;

import java.io.Serializable;

/**
 * A file or directory that discovery found but will not read, with the reason ("Cannot read event log: ...").
 *
 * @param path fully-qualified URI
 * @param bytes size in bytes (for a directory, the sum of its files)
 * @param modificationTimeMs latest modification time, epoch milliseconds
 * @param reason why it is skipped
 */
public record SkippedFile(String path, long bytes, long modificationTimeMs, String reason) implements Serializable {}
