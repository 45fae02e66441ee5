package org.perflab.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.perflab.eventlog.source.Discovery;
import org.perflab.eventlog.source.EventLogLines;
import org.perflab.eventlog.source.EventLogSource;
import org.perflab.eventlog.source.LogDiscovery;

/**
 * The sample logs bundled in the repository ({@code samples/spark-events}, Spark 4.1 logs from PerfLab's workloads),
 * and the decompressed lines of any log, whatever its layout and codec.
 */
public final class SampleLogs {
  private SampleLogs() {}

  /** {@code samples/spark-events} under the project root (the nearest ancestor holding common/ and pom.xml). */
  public static Path directory() {
    for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
      if (Files.isDirectory(p.resolve("common")) && Files.isRegularFile(p.resolve("pom.xml"))) {
        Path samples = p.resolve("samples/spark-events");
        if (Files.isDirectory(samples)) {
          return samples;
        }
      }
    }
    throw new IllegalStateException("Cannot find samples/spark-events above " + Path.of("").toAbsolutePath());
  }

  /** Every bundled log as discovered (single files and rolling directories), in discovery order. */
  public static List<EventLogSource> discover() {
    try {
      return LogDiscovery.discover(List.of(directory().toString()), new Configuration()).logs();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The decompressed lines of a log on any layout and codec, without terminators. */
  public static List<String> lines(EventLogSource source) {
    List<String> lines = new ArrayList<>();
    try (EventLogLines reader = EventLogLines.open(source, new Configuration())) {
      for (String line = reader.nextLine(); line != null; line = reader.nextLine()) {
        lines.add(line);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return lines;
  }

  /** The decompressed lines of the log at {@code path} (a file or a log directory). */
  public static List<String> lines(Path path) {
    try {
      Discovery found = LogDiscovery.discover(List.of(path.toString()), new Configuration());
      if (found.logs().size() != 1) {
        throw new IllegalArgumentException("Cannot read one log: " + found.logs().size() + " logs at " + path);
      }
      return lines(found.logs().get(0));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
