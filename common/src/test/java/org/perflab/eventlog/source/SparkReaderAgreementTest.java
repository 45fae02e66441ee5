package org.perflab.eventlog.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.deploy.history.EventLogFileReader;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.perflab.eventlog.fixture.LogFixtures;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Spark's own event-log reader (what the History Server runs) agrees with our discovery and line reader on every
 * single-file and rolling fixture: same parts, codec, completion, size and decompressed lines.
 */
class SparkReaderAgreementTest {
  private static final Configuration CONF = new Configuration();

  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(LogCompression.class)
  void sparkReadsOurFixturesAsWeDo(LogCompression codec) throws IOException {
    List<String> lines = LogFixtures.sampleLines("app-s", 300);
    List<Path> logs = List.of(
        LogFixtures.singleFile(dir, "app-s", lines, codec, false),
        LogFixtures.singleFile(dir, "app-t", lines, codec, true),
        LogFixtures.rollingDirectory(dir, "app-u", lines, codec, 40, false),
        LogFixtures.rollingDirectory(dir, "app-v", lines, codec, 300, true));

    for (Path log : logs) {
      EventLogSource ours = EventLogLinesTest.discoverOne(log);
      org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(ours.path());
      FileSystem fs = path.getFileSystem(CONF);
      EventLogFileReader spark = EventLogFileReader.apply(fs, path).get();

      List<String> sparkParts = CollectionConverters.asJava(spark.listEventLogFiles()).stream()
          .map(FileStatus::getPath).map(org.apache.hadoop.fs.Path::toString).toList();
      assertThat(ours.parts()).as("%s", log).isEqualTo(sparkParts);
      assertThat(ours.inProgress()).as("%s", log).isEqualTo(!spark.completed());
      assertThat(ours.bytes()).as("%s", log).isEqualTo(spark.totalSize());
      assertThat(ours.codec().shortName()).as("%s", log).isEqualTo(spark.compressionCodec().getOrElse(() -> ""));
      assertThat(EventLogLinesTest.readAll(ours)).as("%s", log).isEqualTo(sparkLines(sparkParts, fs)).isEqualTo(lines);
    }
  }

  private static List<String> sparkLines(List<String> parts, FileSystem fs) throws IOException {
    List<String> lines = new ArrayList<>();
    for (String part : parts) {
      try (BufferedReader reader = new BufferedReader(new InputStreamReader(
          EventLogFileReader.openEventLog(new org.apache.hadoop.fs.Path(part), fs), StandardCharsets.UTF_8))) {
        reader.lines().forEach(lines::add);
      }
    }
    return lines;
  }
}
