package org.perflab.eventlog;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.LongStream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.perflab.eventlog.fixture.LogFixtures;
import org.perflab.eventlog.parse.ParsedLog;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.eventlog.source.LogCompression;
import org.perflab.eventlog.source.Discovery;
import org.perflab.eventlog.source.LogDiscovery;
import org.perflab.table.Table;
import org.perflab.table.TableRow;
import org.perflab.testing.SampleLogs;

/**
 * A log cut short, as a copy interrupted mid-transfer leaves it, in every codec Spark writes and in plain text, cut at
 * several offsets, block and frame boundaries included. A completed log whose compressed stream ends early is PARTIAL,
 * with a reason naming the codec, the compressed bytes read and the part; it keeps the rows of every line before the
 * cut that the codec can decode. The last part of an in-progress log may end anywhere: it stays OK.
 */
class TruncatedLogTest {
  private static final Configuration CONF = new Configuration();
  /** Where the logs are cut, as fractions of their compressed length. */
  private static final double[] CUTS = {0.2, 0.45, 0.7, 0.95};
  private static final String APP = "app-cut";
  /** The codecs whose event-log stream writes out what it holds at a flush; lz4 and lzf write whole blocks only. */
  private static final Set<LogCompression> FLUSH_WRITES = EnumSet.of(LogCompression.ZSTD, LogCompression.SNAPPY);

  /** The bundled sample log with the most lines: Spark 4.1 events, written by Spark. */
  private static List<String> lines;

  @TempDir Path dir;

  @BeforeAll
  static void readSample() {
    lines = SampleLogs.discover().stream().map(SampleLogs::lines)
        .max(Comparator.comparingInt(List::size)).orElseThrow();
  }

  @ParameterizedTest
  @EnumSource(value = LogCompression.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
  void completedLogCutInsideItsStreamIsPartialNamingTheCodecAndOffset(LogCompression codec) throws IOException {
    Path whole = dir.resolve("whole").resolve(APP + codec.suffix());
    long[] flushed = LogFixtures.writeFlushed(whole, lines, codec, true);
    byte[] bytes = Files.readAllBytes(whole);

    for (int cut : cuts(bytes.length)) {
      Path file = cut(bytes, cut, "cut-" + cut, APP + codec.suffix());

      ParsedLog parsed = read(file);

      int kept = decodableLines(Arrays.copyOf(bytes, cut), codec);
      String what = codec + " cut at byte " + cut + " of " + bytes.length + ", " + kept + " lines decodable";
      assertPartial(parsed, codec, cut, file, what);
      assertThat(kept).as(what).isPositive();
      if (FLUSH_WRITES.contains(codec)) {
        assertThat(kept).as(what + ": every line flushed before the cut")
            .isGreaterThanOrEqualTo(flushedBy(flushed, cut));
      }
      ParsedLog expected = expected(kept, false);
      assertSameRows(parsed, expected, what);
      assertThat(parsed.status().get("events")).as(what).isEqualTo(expected.status().get("events"));
    }
  }

  @Test
  void lz4LogCutAtABlockBoundaryIsPartial() throws IOException {
    Path whole = dir.resolve("whole").resolve(APP + ".lz4");
    long[] written = LogFixtures.writeFlushed(whole, lines, LogCompression.LZ4, true);
    byte[] bytes = Files.readAllBytes(whole);
    long[] blockEnds = LongStream.of(written).filter(n -> n > 0).distinct().toArray();
    int endMark = 21;

    for (int cut : new int[] {(int) blockEnds[blockEnds.length / 2], bytes.length - endMark}) {
      Path file = cut(bytes, cut, "cut-" + cut, APP + ".lz4");

      ParsedLog parsed = read(file);

      int kept = decodableLines(Arrays.copyOf(bytes, cut), LogCompression.LZ4);
      String what = "lz4 cut at block boundary " + cut + " of " + bytes.length;
      assertPartial(parsed, LogCompression.LZ4, cut, file, what);
      assertSameRows(parsed, expected(kept, false), what);
      if (cut == bytes.length - endMark) {
        assertThat(kept).as("without its end mark, every block is whole").isEqualTo(lines.size());
        assertThat(parsed.status().get("truncated_last_line")).isEqualTo(false);
      }
    }
  }

  @Test
  void zstdLogCutAtABlockBoundaryInsideAFrameIsPartialAndKeepsEveryLineBefore() throws IOException {
    Path whole = dir.resolve("whole").resolve(APP + ".zstd");
    long[] blockEnds = LogFixtures.writeFlushed(whole, lines, LogCompression.ZSTD, false);
    byte[] bytes = Files.readAllBytes(whole);

    for (double fraction : CUTS) {
      int line = flushedLineNear(fraction);
      int cut = (int) blockEnds[line];
      Path file = cut(bytes, cut, "cut-" + cut, APP + ".zstd");

      ParsedLog parsed = read(file);

      String what = "zstd cut after line " + (line + 1) + ", at block boundary " + cut + " of " + bytes.length;
      assertPartial(parsed, LogCompression.ZSTD, cut, file, what);
      assertThat(parsed.status().get("truncated_last_line")).as(what).isEqualTo(false);
      assertSameRows(parsed, expected(line + 1, false), what);
    }
  }

  /**
   * A limit of the formats, pinned: without an end mark, a cut between zstd frames or snappy chunks (Spark's writer
   * ends one at every flush) cannot be told from the end of a shorter log. The same holds between lzf chunks.
   */
  @ParameterizedTest
  @EnumSource(value = LogCompression.class, names = {"ZSTD", "SNAPPY"})
  void cutBetweenFramesOrChunksOfAFormatWithoutAnEndMarkReadsAsAShorterLog(LogCompression codec) throws IOException {
    Path whole = dir.resolve("whole").resolve(APP + codec.suffix());
    long[] unitEnds = LogFixtures.writeFlushed(whole, lines, codec, true);
    byte[] bytes = Files.readAllBytes(whole);
    int line = flushedLineNear(0.5);
    int cut = (int) unitEnds[line];
    Path file = cut(bytes, cut, "cut-" + cut, APP + codec.suffix());

    ParsedLog parsed = read(file);

    assertThat(parsed.status().get("status")).as("%s", parsed.status().get("reason")).isEqualTo("OK");
    assertSameRows(parsed, expected(line + 1, false), "rows");
  }

  @ParameterizedTest
  @EnumSource(LogCompression.class)
  void inProgressLogCutAnywhereIsOkWithTheRowsItHolds(LogCompression codec) throws IOException {
    String name = APP + codec.suffix() + ".inprogress";
    Path whole = dir.resolve("whole").resolve(name);
    LogFixtures.writeFlushed(whole, lines, codec, true);
    byte[] bytes = Files.readAllBytes(whole);

    for (int cut : cuts(bytes.length)) {
      ParsedLog parsed = read(cut(bytes, cut, "cut-" + cut, name));

      int kept = decodableLines(Arrays.copyOf(bytes, cut), codec);
      String what = codec + " in progress, cut at byte " + cut + " of " + bytes.length;
      assertThat(parsed.status().get("status")).as(what + ": " + parsed.status().get("reason")).isEqualTo("OK");
      assertThat(parsed.status().get("truncated_last_line")).as(what).isEqualTo(false);
      assertSameRows(parsed, expected(kept, true), what);
    }
  }

  @Test
  void plainLogCutInsideALineIsPartialAndCutBetweenLinesIsOk() throws IOException {
    Path whole = LogFixtures.singleFile(dir.resolve("whole"), APP, lines, LogCompression.NONE, false);
    byte[] bytes = Files.readAllBytes(whole);
    long[] lineEnds = new long[lines.size()];
    for (int i = 0, end = 0; i < lines.size(); i++) {
      end += lines.get(i).getBytes(StandardCharsets.UTF_8).length + 1;
      lineEnds[i] = end;
    }

    for (double fraction : CUTS) {
      int line = (int) (fraction * lines.size());
      int inside = (int) (lineEnds[line - 1] + lines.get(line).length() / 2);
      ParsedLog parsed = read(cut(bytes, inside, "inside-" + line, APP));

      String what = "plain log cut inside line " + (line + 1) + ", at byte " + inside;
      assertThat(parsed.status().get("status")).as(what).isEqualTo("PARTIAL");
      assertThat((String) parsed.status().get("reason")).as(what).contains("truncated last line in a completed log");
      assertThat(parsed.status().get("truncated_last_line")).as(what).isEqualTo(true);
      assertSameRows(parsed, expected(line, false), what);

      ParsedLog between = read(cut(bytes, (int) lineEnds[line], "between-" + line, APP));

      assertThat(between.status().get("status")).as("cut after line " + (line + 1)).isEqualTo("OK");
      assertSameRows(between, expected(line + 1, false), "rows");
    }
  }

  @Test
  void rollingLogWithACutPartIsPartialEvenInProgressAndNamesThePart() throws IOException {
    int perPart = lines.size() / 3 + 1;
    Path root = LogFixtures.rollingDirectory(dir, APP, lines, LogCompression.SNAPPY, perPart, true);
    Path first = root.resolve("events_1_" + APP + ".snappy");
    byte[] bytes = Files.readAllBytes(first);
    int cut = bytes.length / 2;
    Files.write(first, Arrays.copyOf(bytes, cut));

    ParsedLog parsed = read(root);

    int kept = decodableLines(Arrays.copyOf(bytes, cut), LogCompression.SNAPPY);
    assertPartial(parsed, LogCompression.SNAPPY, cut, first, "first of three snappy parts cut at byte " + cut);
    assertThat(kept).isPositive().isLessThan(perPart);
    assertSameRows(parsed, expected(kept, true), "rows");
  }

  private static void assertPartial(ParsedLog parsed, LogCompression codec, int cut, Path part, String what) {
    TableRow status = parsed.status();
    assertThat(status.get("status")).as(what + ": " + status.get("reason")).isEqualTo("PARTIAL");
    assertThat((String) status.get("reason")).as(what).startsWith(String.format(Locale.ROOT,
        "Cannot read event log to its end: truncated %s stream (after %,d compressed bytes of %s)",
        codec.shortName(), cut, "file:" + part));
  }

  /** Offsets at {@link #CUTS} of the length, and one byte short of the whole. */
  private static int[] cuts(int length) {
    int[] cuts = new int[CUTS.length + 1];
    for (int i = 0; i < CUTS.length; i++) {
      cuts[i] = (int) (CUTS[i] * length);
    }
    cuts[CUTS.length] = length - 1;
    return cuts;
  }

  /** Writes the first {@code length} bytes as {@code <dir>/<subdir>/<name>}. */
  private Path cut(byte[] bytes, int length, String subdir, String name) throws IOException {
    Path file = dir.resolve(subdir).resolve(name);
    Files.createDirectories(file.getParent());
    return Files.write(file, Arrays.copyOf(bytes, length));
  }

  /** Reads a log as ingest does: discovery, then the streaming reader. */
  private static ParsedLog read(Path path) throws IOException {
    Discovery found = LogDiscovery.discover(List.of(path.toString()), CONF);
    assertThat(found.logs()).as("discovered " + path).hasSize(1);
    return ParsedLog.collect(
        EventLogReader.rows(found.logs().get(0), CONF, Redactor.defaults(), ParsedLog.FIXED_CLOCK));
  }

  /** The first {@code count} lines as a whole plain log, read the same way. */
  private ParsedLog expected(int count, boolean inProgress) throws IOException {
    Path file = LogFixtures.singleFile(dir.resolve("expected-" + count + "-" + inProgress), APP,
        lines.subList(0, count), LogCompression.NONE, inProgress);
    return read(file);
  }

  /**
   * How many of the log's lines the codec's own decoder gives whole for {@code bytes}, up to where it stops or fails: a
   * last line without its newline counts when it is all there. Read a byte at a time, so that a failing read loses
   * nothing.
   */
  private static int decodableLines(byte[] bytes, LogCompression codec) {
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    byte[] one = new byte[1];
    try (InputStream in = codec.decompress(new ByteArrayInputStream(bytes))) {
      for (int read = in.read(one, 0, 1); read >= 0; read = in.read(one, 0, 1)) {
        text.write(one, 0, read);
      }
    } catch (Exception e) { // the decoder stops at the cut; Scala codecs throw checked exceptions undeclared
      // what it gave so far is all there is
    }
    String[] decoded = text.toString(StandardCharsets.UTF_8).split("\n", -1);
    int whole = decoded.length - 1;
    return whole < lines.size() && decoded[whole].equals(lines.get(whole)) ? whole + 1 : whole;
  }

  /** Compares every table's rows, showing only the rows that differ. */
  private static void assertSameRows(ParsedLog actual, ParsedLog expected, String what) {
    Map<Table, List<String>> actualRows = actual.dataRows();
    expected.dataRows().forEach((table, rows) -> {
      List<String> extra = new ArrayList<>(actualRows.get(table));
      extra.removeAll(rows);
      List<String> missing = new ArrayList<>(rows);
      missing.removeAll(actualRows.get(table));
      assertThat(extra).as(what + ": " + table + " rows not expected").isEmpty();
      assertThat(missing).as(what + ": " + table + " rows missing").isEmpty();
      assertThat(actualRows.get(table)).as(what + ": " + table + " rows").hasSameSizeAs(rows);
    });
  }

  /** How many lines were in the file by its first {@code cut} bytes: those up to the last flush that fits. */
  private static int flushedBy(long[] lengths, int cut) {
    int count = 0;
    for (int i = 0; i < lengths.length && lengths[i] <= cut; i++) {
      count = isTaskEvent(lines.get(i)) ? count : i + 1;
    }
    return count;
  }

  private static boolean isTaskEvent(String line) {
    return line.startsWith("{\"Event\":\"SparkListenerTask");
  }

  /** The index of the first line at or after {@code fraction} of the log that is flushed (not a task event). */
  private static int flushedLineNear(double fraction) {
    int line = (int) (fraction * lines.size());
    while (isTaskEvent(lines.get(line))) {
      line++;
    }
    return line;
  }
}
