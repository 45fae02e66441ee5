package org.perflab.spark.corpus;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.perflab.errors.BadInputException;

/**
 * The run manifest, a CSV file on any Hadoop FileSystem (by default {@code <event-log-dir>/_perflab_corpus.csv}; the
 * leading underscore keeps it out of ingest). It is rewritten whole after every run, so a killed sweep leaves every
 * finished run recorded.
 */
public final class Manifest {
  private final Path path;
  private final Configuration hadoop;

  public Manifest(String path, Configuration hadoop) {
    this.path = new Path(path);
    this.hadoop = hadoop;
  }

  public String path() {
    return path.toString();
  }

  /** The rows already recorded, by grid point (the last row of a point wins); empty when there is no manifest. */
  public Map<String, ManifestRow> load() {
    Map<String, ManifestRow> rows = new LinkedHashMap<>();
    try {
      FileSystem fs = path.getFileSystem(hadoop);
      if (!fs.exists(path)) {
        return rows;
      }
      try (BufferedReader reader =
          new BufferedReader(new InputStreamReader(fs.open(path), StandardCharsets.UTF_8))) {
        String header = reader.readLine();
        BadInputException.require(header != null && parseLine(header).equals(ManifestRow.HEADER),
            "Cannot resume from manifest %s: its header is not a PerfLab corpus manifest's (%s)", path, header);
        String line;
        int number = 1;
        while ((line = reader.readLine()) != null) {
          number++;
          if (!line.isBlank()) {
            ManifestRow row = row(line, number);
            rows.put(row.gridPoint(), row);
          }
        }
      }
      return rows;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read manifest " + path + ": " + e.getMessage(), e);
    }
  }

  /** Replaces the manifest with {@code rows}. */
  public void write(Collection<ManifestRow> rows) {
    StringBuilder csv = new StringBuilder(line(ManifestRow.HEADER));
    rows.forEach(row -> csv.append(line(row.values())));
    try {
      FileSystem fs = path.getFileSystem(hadoop);
      try (OutputStream out = fs.create(path, true)) {
        out.write(csv.toString().getBytes(StandardCharsets.UTF_8));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write manifest " + path + ": " + e.getMessage(), e);
    }
  }

  private ManifestRow row(String line, int number) {
    try {
      List<String> values = parseLine(line);
      BadInputException.require(values.size() == ManifestRow.HEADER.size(),
          "Cannot resume from manifest %s: line %d has %d fields (%d expected)", path, number, values.size(),
          ManifestRow.HEADER.size());
      return ManifestRow.of(values);
    } catch (IllegalArgumentException e) {
      throw new BadInputException("Cannot resume from manifest " + path + ": line " + number + " is malformed ("
          + e.getMessage() + ")", e);
    }
  }

  static String line(List<String> values) {
    StringBuilder line = new StringBuilder();
    for (String value : values) {
      line.append(line.length() == 0 ? "" : ",");
      boolean quote = value.contains(",") || value.contains("\"") || value.contains("\n");
      line.append(quote ? "\"" + value.replace("\"", "\"\"") + "\"" : value);
    }
    return line.append('\n').toString();
  }

  static List<String> parseLine(String line) {
    List<String> values = new ArrayList<>();
    StringBuilder value = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quoted && c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
        value.append('"');
        i++;
      } else if (c == '"') {
        quoted = !quoted;
      } else if (c == ',' && !quoted) {
        values.add(value.toString());
        value.setLength(0);
      } else {
        value.append(c);
      }
    }
    values.add(value.toString());
    return values;
  }
}
