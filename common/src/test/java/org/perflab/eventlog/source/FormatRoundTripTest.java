package org.perflab.eventlog.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perflab.eventlog.source.EventLogLinesTest.readAll;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.perflab.eventlog.fixture.LogFixtures;

/** Every derived format, read back through discovery and the line reader, gives exactly the original lines. */
class FormatRoundTripTest {
  private static final Configuration CONF = new Configuration();

  @TempDir Path dir;

  /** One derived log: where it was written and what discovery must say about it. */
  private record Written(Path path, LogLayout layout, LogCompression codec, boolean inProgress, List<String> lines) {}

  @ParameterizedTest
  @EnumSource(LogCompression.class)
  void everyLayoutRoundTripsReferenceLogs(LogCompression codec) throws IOException {
    for (Path log : LogFixtures.referenceLogs()) {
      List<String> lines = LogFixtures.readLines(log);
      String appId = log.getFileName().toString();
      for (Written written : writeAllLayouts(dir.resolve(codec.name()), appId, lines, codec)) {
        EventLogSource source = EventLogLinesTest.discoverOne(written.path());
        assertThat(readAll(source)).as("%s as %s", appId, written).isEqualTo(lines);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(LogCompression.class)
  void everyLayoutRoundTripsGeneratedLines(LogCompression codec) throws IOException {
    List<String> lines = LogFixtures.sampleLines("app-20261121235000-0001", 1000);
    for (Written written : writeAllLayouts(dir, "app-20261121235000-0001", lines, codec)) {
      assertThat(readAll(EventLogLinesTest.discoverOne(written.path()))).as("%s", written).isEqualTo(lines);
    }
  }

  @Test
  void mixedArchiveFindsEachLogOnceWithItsAttributes() throws IOException {
    List<Written> expected = new ArrayList<>();
    int n = 0;
    for (LogCompression codec : LogCompression.values()) {
      List<String> lines = LogFixtures.sampleLines("app-" + n, 50 + n);
      expected.addAll(writeAllLayouts(dir.resolve("archive/" + codec.shortName()), "app-" + n++, lines, codec));
    }

    Discovery found = LogDiscovery.discover(List.of(dir.resolve("archive").toString()), CONF);

    assertThat(found.skipped()).isEmpty();
    assertThat(found.logs()).hasSize(expected.size());
    for (Written written : expected) {
      EventLogSource log = found.logs().stream()
          .filter(l -> l.path().equals("file:" + written.path())).findFirst().orElseThrow();
      assertThat(log.layout()).as("%s", written).isEqualTo(written.layout());
      assertThat(log.codec()).as("%s", written).isEqualTo(written.codec());
      assertThat(log.inProgress()).as("%s", written).isEqualTo(written.inProgress());
      assertThat(log.bytes()).as("%s", written).isEqualTo(partBytes(log));
      assertThat(log.modificationTimeMs()).as("%s", written).isEqualTo(latestPartTime(log));
      assertThat(readAll(log)).as("%s", written).isEqualTo(written.lines());
    }
  }

  private static List<Written> writeAllLayouts(Path dir, String appId, List<String> lines, LogCompression codec) {
    return List.of(
        new Written(LogFixtures.singleFile(dir, appId, lines, codec, false), LogLayout.SINGLE_FILE, codec, false,
            lines),
        new Written(LogFixtures.singleFile(dir, appId + "-running", lines, codec, true), LogLayout.SINGLE_FILE, codec,
            true, lines),
        new Written(LogFixtures.rollingDirectory(dir, appId, lines, codec, 1 + lines.size() / 4, false),
            LogLayout.ROLLING_DIRECTORY, codec, false, lines),
        new Written(LogFixtures.rollingDirectory(dir, appId + "-running", lines, codec, 7, true),
            LogLayout.ROLLING_DIRECTORY, codec, true, lines),
        new Written(LogFixtures.legacyDirectory(dir.resolve("legacy"), appId, lines, codec, "1.2.0", false),
            LogLayout.LEGACY_DIRECTORY, codec, false, lines));
  }

  private static long partBytes(EventLogSource log) {
    return log.parts().stream().mapToLong(p -> localPath(p).toFile().length()).sum();
  }

  private static long latestPartTime(EventLogSource log) {
    return log.parts().stream().mapToLong(p -> localPath(p).toFile().lastModified()).max().orElseThrow();
  }

  private static Path localPath(String uri) {
    Path path = Path.of(uri.substring("file:".length()));
    assertThat(Files.isRegularFile(path)).isTrue();
    return path;
  }

}
