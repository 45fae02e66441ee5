package org.perflab.eventlog.source;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.UnsupportedFileSystemException;
import org.perflab.errors.BadInputException;

/**
 * Finds the event logs under paths or globs on any Hadoop file system.
 *
 * <p>A matched path may be a single log file, a rolling {@code eventlog_v2_*} directory, a legacy Spark 1.x
 * directory, or an archive directory holding any of these at any depth. Hidden names ({@code _x}, {@code .x}) and
 * {@code .crc} side files are ignored. Listing costs one call per directory ({@code listStatus}), or on object stores
 * one flat recursive listing ({@code listFiles}); never one call per file. Unqualified paths resolve against {@code fs.defaultFS} and the working directory, as in Hadoop.
 */
public final class LogDiscovery {
  /** Schemes of object stores, where a flat recursive listing is far cheaper than one listing per directory. */
  private static final Set<String> OBJECT_STORES =
      Set.of("s3a", "s3", "s3n", "gs", "abfs", "abfss", "wasb", "wasbs", "oss", "cosn", "obs");

  /**
   * Hadoop configuration key choosing how directories are listed: {@code tree} (one {@code listStatus} per directory)
   * or {@code flat} (one recursive {@code listFiles}). Default: {@code flat} on object stores, else {@code tree}.
   */
  public static final String LISTING_KEY = "perflab.discovery.listing";

  private final Configuration conf;
  private final Map<String, EventLogSource> logs = new LinkedHashMap<>();
  private final Map<String, SkippedFile> skipped = new LinkedHashMap<>();
  private final Layouts layouts = new Layouts(this::addLog, this::addSkipped);
  private long found;

  private LogDiscovery(Configuration conf) {
    this.conf = conf;
  }

  /**
   * Finds every log under {@code pathsOrGlobs}; a log matched twice is returned once.
   *
   * @throws BadInputException when a path or glob matches no file, or names an unknown file system
   * @throws IOException when the file system fails
   */
  public static Discovery discover(List<String> pathsOrGlobs, Configuration conf) throws IOException {
    LogDiscovery discovery = new LogDiscovery(conf);
    for (String pattern : pathsOrGlobs) {
      discovery.addPattern(pattern);
    }
    List<EventLogSource> logs = new ArrayList<>(discovery.logs.values());
    logs.sort(Comparator.comparing(EventLogSource::path));
    List<SkippedFile> skipped = new ArrayList<>(discovery.skipped.values());
    skipped.sort(Comparator.comparing(SkippedFile::path));
    return new Discovery(logs, skipped);
  }

  private void addPattern(String pattern) throws IOException {
    long before = found;
    for (FileStatus status : glob(pattern)) {
      if (status.isDirectory()) {
        addDirectory(status.getPath());
      } else if (!LogNames.isIgnored(status.getPath().getName())) {
        layouts.singleFile(status);
      }
    }
    if (found == before) {
      throw noMatch(pattern);
    }
  }

  private FileStatus[] glob(String pattern) throws IOException {
    if (pattern == null || pattern.isBlank()) {
      throw noMatch(pattern);
    }
    try {
      Path path = new Path(pattern);
      FileSystem fs = path.getFileSystem(conf);
      FileStatus[] matches = fs.globStatus(fs.makeQualified(path));
      if (matches == null || matches.length == 0) {
        throw noMatch(pattern);
      }
      return matches;
    } catch (UnsupportedFileSystemException | IllegalArgumentException e) {
      throw new BadInputException(
          "Cannot find event logs: " + e.getMessage() + " (" + pattern + ")", e);
    }
  }

  /** Lists the directory tree, then turns each directory's files into logs by the layout they form. */
  private void addDirectory(Path root) throws IOException {
    FileSystem fs = root.getFileSystem(conf);
    Map<Path, List<FileStatus>> byParent = new TreeMap<>();
    String listing = conf.get(LISTING_KEY, OBJECT_STORES.contains(fs.getUri().getScheme()) ? "flat" : "tree");
    if (listing.equals("flat")) {
      listFlat(fs, root, byParent);
    } else {
      listTree(fs, root, byParent);
    }
    for (Map.Entry<Path, List<FileStatus>> group : byParent.entrySet()) {
      addGroup(group.getKey(), group.getValue());
    }
  }

  /** One {@code listStatus} per directory, never descending into hidden ones; a directory deleted meanwhile is gone. */
  private static void listTree(FileSystem fs, Path root, Map<Path, List<FileStatus>> byParent) throws IOException {
    Deque<Path> pending = new ArrayDeque<>(List.of(root));
    while (!pending.isEmpty()) {
      Path dir = pending.pop();
      FileStatus[] children;
      try {
        children = fs.listStatus(dir);
      } catch (FileNotFoundException e) {
        continue;
      }
      for (FileStatus child : children) {
        if (LogNames.isIgnored(child.getPath().getName())) {
          continue;
        }
        if (child.isDirectory()) {
          pending.push(child.getPath());
        } else {
          byParent.computeIfAbsent(child.getPath().getParent(), p -> new ArrayList<>()).add(child);
        }
      }
    }
  }

  /** Object stores list a whole prefix in a few paged calls: one flat recursive listing. */
  private static void listFlat(FileSystem fs, Path root, Map<Path, List<FileStatus>> byParent) throws IOException {
    RemoteIterator<LocatedFileStatus> files = fs.listFiles(root, true);
    while (files.hasNext()) {
      LocatedFileStatus file = files.next();
      if (!isHiddenBelow(root, file.getPath())) {
        byParent.computeIfAbsent(file.getPath().getParent(), p -> new ArrayList<>()).add(file);
      }
    }
  }

  private void addGroup(Path dir, List<FileStatus> files) {
    if (LogNames.isRollingDirectory(dir.getName())) {
      layouts.rollingDirectory(dir, files);
    } else if (files.stream().anyMatch(f -> LogNames.legacyIndex(f.getPath().getName()) >= 0)) {
      layouts.legacyDirectory(dir, files);
    } else if (!isInsideRollingDirectory(dir)) {
      files.forEach(layouts::singleFile);
    }
  }

  private static boolean isInsideRollingDirectory(Path dir) {
    for (Path p = dir.getParent(); p != null; p = p.getParent()) {
      if (LogNames.isRollingDirectory(p.getName())) {
        return true;
      }
    }
    return false;
  }

  /** Whether any name between {@code root} (exclusive) and {@code file} (inclusive) is hidden. */
  private static boolean isHiddenBelow(Path root, Path file) {
    int rootDepth = root.depth();
    for (Path p = file; p != null && p.depth() > rootDepth; p = p.getParent()) {
      if (LogNames.isIgnored(p.getName())) {
        return true;
      }
    }
    return false;
  }

  private void addLog(EventLogSource log) {
    found++;
    logs.putIfAbsent(log.path(), log);
  }

  private void addSkipped(SkippedFile file) {
    found++;
    skipped.putIfAbsent(file.path(), file);
  }

  private static BadInputException noMatch(String pattern) {
    return new BadInputException("Cannot find event logs: no file matches the input (" + pattern + ")");
  }
}
