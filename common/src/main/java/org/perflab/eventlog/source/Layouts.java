package org.perflab.eventlog.source;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/** Turns listed files into {@link EventLogSource}s or {@link SkippedFile}s, one layout at a time. */
final class Layouts {
  private final Consumer<EventLogSource> logs;
  private final Consumer<SkippedFile> skipped;

  Layouts(Consumer<EventLogSource> logs, Consumer<SkippedFile> skipped) {
    this.logs = logs;
    this.skipped = skipped;
  }

  /** A single-file log: {@code <appId>[.<codec>][.inprogress]}. */
  void singleFile(FileStatus file) {
    String name = file.getPath().getName();
    LogCompression codec = LogNames.codecOf(name);
    if (codec == null) {
      skip(file.getPath(), List.of(file), LogNames.unsupportedCodecReason(name));
      return;
    }
    boolean inProgress = name.endsWith(LogNames.IN_PROGRESS);
    logs.accept(source(file.getPath(), LogLayout.SINGLE_FILE, List.of(file), codec, inProgress, null));
  }

  /** A rolling directory: parts {@code events_<n>_...} read from the last compacted one on, and an appstatus marker. */
  void rollingDirectory(Path dir, List<FileStatus> files) {
    List<FileStatus> parts = new ArrayList<>();
    boolean completed = false;
    for (FileStatus file : files) {
      String name = file.getPath().getName();
      if (LogNames.rollingIndex(name) >= 0) {
        parts.add(file);
      } else if (name.startsWith(LogNames.APP_STATUS_PREFIX) && !name.endsWith(LogNames.IN_PROGRESS)) {
        completed = true;
      }
    }
    if (parts.isEmpty()) {
      skip(dir, files, "Cannot read event log: rolling directory has no events_<n> parts (" + dir + ")");
      return;
    }
    parts.sort(Comparator.comparingLong((FileStatus f) -> LogNames.rollingIndex(f.getPath().getName()))
        .thenComparing(f -> !f.getPath().getName().endsWith(LogNames.COMPACTED)));
    parts = fromLastCompacted(parts);
    String first = parts.get(0).getPath().getName();
    LogCompression codec = LogNames.codecOf(first);
    if (codec == null) {
      skip(dir, files, LogNames.unsupportedCodecReason(first));
      return;
    }
    logs.accept(source(dir, LogLayout.ROLLING_DIRECTORY, parts, codec, !completed, null));
  }

  /** A Spark 1.0-1.2 directory: {@code EVENT_LOG_<n>} files and marker files. */
  void legacyDirectory(Path dir, List<FileStatus> files) {
    List<FileStatus> parts = new ArrayList<>();
    String version = null;
    String codecName = null;
    boolean completed = false;
    for (FileStatus file : files) {
      String name = file.getPath().getName();
      if (LogNames.legacyIndex(name) >= 0) {
        parts.add(file);
      } else if (name.startsWith(LogNames.LEGACY_VERSION_PREFIX)) {
        version = name.substring(LogNames.LEGACY_VERSION_PREFIX.length());
      } else if (name.startsWith(LogNames.LEGACY_CODEC_PREFIX)) {
        codecName = name.substring(LogNames.LEGACY_CODEC_PREFIX.length());
      } else if (name.equals(LogNames.LEGACY_COMPLETE)) {
        completed = true;
      }
    }
    parts.sort(Comparator.comparingLong(f -> LogNames.legacyIndex(f.getPath().getName())));
    LogCompression codec = codecName == null ? LogCompression.NONE : LogCompression.fromLegacyName(codecName).orElse(null);
    if (codec == null) {
      skip(dir, files,
          "Cannot read event log: unsupported codec (" + codecName + "; supported: " + LogCompression.SUPPORTED + ")");
      return;
    }
    logs.accept(source(dir, LogLayout.LEGACY_DIRECTORY, parts, codec, !completed, version));
  }

  private static List<FileStatus> fromLastCompacted(List<FileStatus> sorted) {
    int start = 0;
    for (int i = 0; i < sorted.size(); i++) {
      if (sorted.get(i).getPath().getName().endsWith(LogNames.COMPACTED)) {
        start = i;
      }
    }
    List<FileStatus> result = new ArrayList<>(sorted.subList(start, sorted.size()));
    if (start > 0 || result.get(0).getPath().getName().endsWith(LogNames.COMPACTED)) {
      long compactedIndex = LogNames.rollingIndex(result.get(0).getPath().getName());
      // An original part left next to its compacted copy is already in the copy.
      result.removeIf(f -> LogNames.rollingIndex(f.getPath().getName()) == compactedIndex
          && !f.getPath().getName().endsWith(LogNames.COMPACTED));
    }
    return result;
  }

  private static EventLogSource source(
      Path path, LogLayout layout, List<FileStatus> parts, LogCompression codec, boolean inProgress, String version) {
    List<String> uris = parts.stream().map(f -> f.getPath().toString()).toList();
    return new EventLogSource(
        path.toString(), layout, uris, totalBytes(parts), latestModification(parts), codec, inProgress, version);
  }

  private void skip(Path path, List<FileStatus> files, String reason) {
    skipped.accept(new SkippedFile(path.toString(), totalBytes(files), latestModification(files), reason));
  }

  private static long totalBytes(List<FileStatus> files) {
    return files.stream().mapToLong(FileStatus::getLen).sum();
  }

  private static long latestModification(List<FileStatus> files) {
    return files.stream().mapToLong(FileStatus::getModificationTime).max().orElse(0L);
  }
}
