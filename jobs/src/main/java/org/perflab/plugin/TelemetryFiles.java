package org.perflab.plugin;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The telemetry directory's JSON-lines files, appended to by the listener bus and the plugin RPC threads. Each append
 * is flushed ({@code hflush}), so a crashed application leaves every completed line readable; {@link #close} writes
 * {@code manifest.json} with each file's line count, so a reader can tell a complete directory from a truncated one.
 */
final class TelemetryFiles {
  /** Bumped when a record's meaning changes; readers refuse other versions. */
  static final int FORMAT_VERSION = 1;
  static final String MANIFEST = "manifest.json";

  private final FileSystem fs;
  private final Path dir;
  private final Map<String, FSDataOutputStream> open = new HashMap<>();
  private final Map<String, Long> lines = new TreeMap<>();
  private final String appId;

  TelemetryFiles(Path dir, Configuration hadoop, String appId) throws IOException {
    FileSystem any = dir.getFileSystem(hadoop);
    this.fs = any instanceof LocalFileSystem local ? local.getRaw() : any;
    this.dir = dir;
    this.appId = appId;
    fs.mkdirs(dir);
  }

  /** Appends {@code records} to {@code file} (a name inside the directory), one line each, and flushes. */
  synchronized void append(String file, List<String> records) throws IOException {
    if (records.isEmpty()) {
      return;
    }
    FSDataOutputStream out = open.get(file);
    if (out == null) {
      out = fs.create(new Path(dir, file), false);
      open.put(file, out);
    }
    StringBuilder text = new StringBuilder();
    for (String record : records) {
      text.append(record).append('\n');
    }
    out.write(text.toString().getBytes(StandardCharsets.UTF_8));
    out.hflush();
    lines.merge(file, (long) records.size(), Long::sum);
  }

  /** Closes every file and writes the manifest. */
  synchronized void close() throws IOException {
    for (OutputStream out : open.values()) {
      out.close();
    }
    open.clear();
    Map<String, Object> manifest = new LinkedHashMap<>();
    manifest.put("format", "perflab-telemetry");
    manifest.put("version", FORMAT_VERSION);
    manifest.put("app_id", appId);
    manifest.put("lines", lines);
    try (FSDataOutputStream out = fs.create(new Path(dir, MANIFEST), true)) {
      out.write((JsonLines.of(manifest) + "\n").getBytes(StandardCharsets.UTF_8));
    }
  }
}
