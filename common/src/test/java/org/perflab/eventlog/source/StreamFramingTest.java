package org.perflab.eventlog.source;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdOutputStreamNoFinalizer;
import com.ning.compress.lzf.LZFOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.xerial.snappy.SnappyOutputStream;

/**
 * {@link StreamFraming} on streams made by the codec libraries Spark uses: after every byte, whether the stream may end
 * there. It may exactly where a frame, a stream with its end mark, or (for formats without one) a chunk is complete.
 */
class StreamFramingTest {
  private static final Random RANDOM = new Random(7);

  @Test
  void zstdEndsOnlyBetweenFramesWhateverTheirHeadersBlocksAndChecksums() throws IOException {
    ByteArrayOutputStream stream = new ByteArrayOutputStream();
    Set<Integer> ends = new TreeSet<>();
    // Multi-block frames with a checksum and no content size, as a stream writes them; RLE blocks; a one-shot frame
    // with its content size; a skippable frame.
    append(stream, ends, zstdStream(text(300_000), true));
    append(stream, ends, zstdStream("a".repeat(400_000).getBytes(StandardCharsets.US_ASCII), false));
    append(stream, ends, Zstd.compress(text(5_000), 3));
    append(stream, ends, skippableFrame(40));
    append(stream, ends, zstdStream(text(1_000), false));

    assertThat(endsSeen(new ZstdFraming(), stream.toByteArray())).isEqualTo(ends);
  }

  @Test
  void lz4EndsOnlyAfterAnEndMarkNeverAtABlockBoundary() throws IOException {
    ByteArrayOutputStream stream = new ByteArrayOutputStream();
    Set<Integer> ends = new TreeSet<>();
    append(stream, ends, compressed(LogCompression.LZ4, text(200_000)));
    append(stream, ends, compressed(LogCompression.LZ4, text(10)));

    assertThat(endsSeen(new Lz4BlockFraming(), stream.toByteArray())).isEqualTo(ends);
  }

  @Test
  void snappyEndsAfterItsHeaderAndAfterEveryChunkOfConcatenatedStreams() throws IOException {
    ByteArrayOutputStream stream = new ByteArrayOutputStream();
    Set<Integer> ends = new TreeSet<>();
    for (int streams = 0; streams < 2; streams++) {
      ends.add(stream.size() + 16);
      try (SnappyOutputStream out = new SnappyOutputStream(stream)) {
        for (int chunk = 0; chunk < 4; chunk++) {
          out.write(text(3_000 + 9_000 * chunk)); // within one 32 KiB block
          out.flush();
          ends.add(stream.size());
        }
      }
    }

    assertThat(endsSeen(new SnappyFraming(), stream.toByteArray())).isEqualTo(ends);
  }

  @Test
  void lzfEndsAfterEveryStoredOrCompressedChunk() throws IOException {
    ByteArrayOutputStream stream = new ByteArrayOutputStream();
    Set<Integer> ends = new TreeSet<>();
    byte[] incompressible = new byte[5_000];
    RANDOM.nextBytes(incompressible);
    try (LZFOutputStream out = new LZFOutputStream(stream).setFinishBlockOnFlush(true)) {
      for (byte[] chunk : List.of(text(20_000), incompressible, text(60_000))) {
        out.write(chunk);
        out.flush();
        ends.add(stream.size());
      }
    }

    assertThat(endsSeen(new LzfFraming(), stream.toByteArray())).isEqualTo(ends);
  }

  @Test
  void bytesOutsideTheFormatLoseTheFramingWhichThenCannotTellACut() {
    byte[] junk = new byte[1_000];
    RANDOM.nextBytes(junk);
    junk[0] = 'x';

    for (LogCompression codec : new LogCompression[] {LogCompression.LZ4, LogCompression.LZF, LogCompression.SNAPPY, LogCompression.ZSTD}) {
      StreamFraming framing = StreamFraming.of(codec);
      framing.update(junk, 0, junk.length);
      assertThat(framing.mayEndHere()).as(codec.name()).isTrue();
    }
    assertThat(StreamFraming.of(LogCompression.NONE)).isNull();
  }

  /** The lengths after which the framing says the stream may end, feeding one byte at a time. */
  private static Set<Integer> endsSeen(StreamFraming framing, byte[] bytes) {
    Set<Integer> ends = new TreeSet<>();
    for (int i = 0; i < bytes.length; i++) {
      framing.update(bytes, i, 1);
      if (framing.mayEndHere()) {
        ends.add(i + 1);
      }
    }
    return ends;
  }

  private static void append(ByteArrayOutputStream stream, Set<Integer> ends, byte[] unit) {
    stream.writeBytes(unit);
    ends.add(stream.size());
  }

  private static byte[] zstdStream(byte[] text, boolean checksum) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ZstdOutputStreamNoFinalizer out = new ZstdOutputStreamNoFinalizer(bytes).setChecksum(checksum)) {
      out.write(text);
    }
    return bytes.toByteArray();
  }

  private static byte[] skippableFrame(int payload) {
    ByteBuffer frame = ByteBuffer.allocate(8 + payload).order(ByteOrder.LITTLE_ENDIAN);
    frame.putInt(0x184D2A53).putInt(payload);
    return frame.array();
  }

  private static byte[] compressed(LogCompression codec, byte[] text) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (OutputStream out = codec.compress(bytes)) {
      out.write(text);
    }
    return bytes.toByteArray();
  }

  /** Event-like text that compresses, but not to nothing. */
  private static byte[] text(int length) {
    StringBuilder text = new StringBuilder(length + 100);
    List<String> words = new ArrayList<>(List.of("Task", "Stage", "Executor", "\"Launch Time\":", "{", "}", ","));
    while (text.length() < length) {
      text.append(words.get(RANDOM.nextInt(words.size()))).append(RANDOM.nextInt(100_000));
    }
    return text.substring(0, length).getBytes(StandardCharsets.UTF_8);
  }
}
