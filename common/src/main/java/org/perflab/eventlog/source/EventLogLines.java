package org.perflab.eventlog.source;

import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.perflab.eventlog.parse.Swar;

/**
 * Streams the decompressed text of an event log line by line, across all its parts in order, in constant memory
 * (one read buffer plus the longest line). Lines are UTF-8; malformed bytes become U+FFFD. A line ends at
 * {@code '\n'} (a {@code '\r'} before it is dropped) or at the end of a part.
 *
 * <p>Every compressed part is read to its end of stream: a part whose file ends before its stream does (a copy
 * interrupted mid-transfer) gives its lines up to the cut, then fails; only the last part of an in-progress log may end
 * anywhere, since its writer is still adding to it. Not thread-safe.
 */
public final class EventLogLines implements AutoCloseable {
  /** The longest line accepted, in bytes: plan strings of tens of MB fit, a newline-free binary file does not. */
  public static final int MAX_LINE_BYTES = 1 << 29;

  private static final int BUFFER_BYTES = 1 << 16;
  private static final int MAX_EMPTY_READS = 1000;

  private final EventLogSource source;
  private final Configuration conf;
  private final byte[] buffer = new byte[BUFFER_BYTES];
  private byte[] line = new byte[1 << 12];
  private int position;
  private int limit;
  private int nextPart;
  private String currentPart;
  private InputStream in;
  /** The compressed bytes of the current part, or null for a plain one. */
  private FramedInputStream framed;
  /** Whether the current part's decoder has nothing more to give. */
  private boolean drained;
  private long lineNumber;
  private byte[] lineBytes;
  private int lineStart;
  private int lineEnd;
  private boolean lastLineTerminated = true;

  private EventLogLines(EventLogSource source, Configuration conf) {
    this.source = source;
    this.conf = conf;
  }

  /**
   * The lines of one plain (already decompressed) stream, read from where it stands; closing them closes it. For a
   * log held in memory or piped in.
   *
   * @param name names the stream in messages
   */
  public static EventLogLines of(InputStream stream, String name) {
    EventLogSource source = new EventLogSource(name, LogLayout.SINGLE_FILE, List.of(name), 0, 0,
        LogCompression.NONE, false, null);
    EventLogLines lines = new EventLogLines(source, null);
    lines.nextPart = 1;
    lines.currentPart = name;
    lines.in = stream;
    return lines;
  }

  /** Opens {@code source}; parts are opened one at a time as reading reaches them. */
  public static EventLogLines open(EventLogSource source, Configuration conf) {
    return new EventLogLines(source, conf);
  }

  /**
   * The next line without its terminator, or null at the end of the last part.
   *
   * @throws IOException when a part cannot be read; when a compressed part cannot be decoded, with the message
   *     {@code Cannot decode <codec> stream: <reason> (<part>)}; or after the last line of a compressed part whose
   *     file ends before its stream does, with the message {@code Cannot read event log to its end: truncated
   *     <codec> stream (after <n> compressed bytes of <part>)}, unless it is the last part of an in-progress log
   */
  public String nextLine() throws IOException {
    return advance() ? new String(lineBytes, lineStart, lineEnd - lineStart, StandardCharsets.UTF_8) : null;
  }

  /**
   * Moves to the next line and keeps it as UTF-8 bytes, {@link #lineBytes()} from {@link #lineStart()} to
   * {@link #lineEnd()}, without decoding it: the line {@link #nextLine()} would return, valid until the next call.
   *
   * @return false at the end of the last part
   * @throws IOException as {@link #nextLine()}
   */
  public boolean advance() throws IOException {
    while (true) {
      if (in == null && !openNextPart()) {
        return false;
      }
      if (readLine()) {
        lineNumber++;
        return true;
      }
      requireEndOfStream();
      closePart();
    }
  }

  /** The array holding the line {@link #advance()} moved to. */
  public byte[] lineBytes() {
    return lineBytes;
  }

  /** Where that line starts in {@link #lineBytes()}. */
  public int lineStart() {
    return lineStart;
  }

  /** Where that line ends (exclusive, without its terminator) in {@link #lineBytes()}. */
  public int lineEnd() {
    return lineEnd;
  }

  /** The 1-based number, counted across parts, of the line last returned; 0 before the first. */
  public long lineNumber() {
    return lineNumber;
  }

  /**
   * Whether the line last returned ended with {@code '\n'}; once {@link #nextLine()} has returned null, whether the
   * log's final line did (false for a truncated last line). True when there was no line.
   */
  public boolean lastLineTerminated() {
    return lastLineTerminated;
  }

  /** The part being read, or null before the first and after the last. */
  public String currentPart() {
    return currentPart;
  }

  @Override
  public void close() throws IOException {
    closePart();
    nextPart = source.parts().size();
  }

  private boolean openNextPart() throws IOException {
    if (nextPart >= source.parts().size()) {
      return false;
    }
    currentPart = source.parts().get(nextPart++);
    Path path = new Path(currentPart);
    InputStream file = path.getFileSystem(conf).open(path);
    StreamFraming framing = StreamFraming.of(source.codec());
    framed = framing == null ? null : new FramedInputStream(file, framing);
    PushbackInputStream raw = new PushbackInputStream(framed == null ? file : framed, 1);
    int first = raw.read();
    if (first < 0 || source.codec() == LogCompression.NONE) {
      // An empty part has no codec header to decode: it simply holds no lines.
      if (first >= 0) {
        raw.unread(first);
      }
      in = raw;
      return true;
    }
    raw.unread(first);
    try {
      in = source.codec().decompress(raw);
    } catch (Exception e) { // Scala codecs may throw checked exceptions undeclared
      if (!framed.cutShort()) {
        raw.close();
        throw decodeFailure(e);
      }
      // The file ends inside the stream's header: no lines, and requireEndOfStream() says why.
      in = raw;
      drained = true;
    }
    return true;
  }

  /** Moves to the next line of the current part; false at its end. */
  private boolean readLine() throws IOException {
    int length = 0;
    while (true) {
      if (position == limit && !fill()) {
        if (length == 0) {
          return false;
        }
        lastLineTerminated = false;
        return view(line, 0, length);
      }
      int newline = indexOfNewline();
      if (newline >= 0) {
        lastLineTerminated = true;
        if (length == 0) {
          view(buffer, position, newline - position);
          position = newline + 1;
          return true;
        }
        length = append(length, newline - position);
        position = newline + 1;
        return view(line, 0, length);
      }
      length = append(length, limit - position);
      position = limit;
    }
  }

  /** Makes {@code bytes[offset, offset + length)} the current line, without a {@code '\r'} that ends it. */
  private boolean view(byte[] bytes, int offset, int length) {
    lineBytes = bytes;
    lineStart = offset;
    lineEnd = length > 0 && bytes[offset + length - 1] == '\r' ? offset + length - 1 : offset + length;
    return true;
  }

  private int indexOfNewline() {
    return Swar.indexOfNewline(buffer, position, limit);
  }

  private int append(int length, int count) throws IOException {
    int needed = length + count;
    if (needed > MAX_LINE_BYTES) {
      throw new IOException(String.format("Cannot read event log line: longer than %d bytes (line %d of %s)",
          MAX_LINE_BYTES, lineNumber + 1, currentPart));
    }
    if (needed > line.length) {
      line = Arrays.copyOf(line, (int) Math.min(MAX_LINE_BYTES, Math.max(needed, 2L * line.length)));
    }
    System.arraycopy(buffer, position, line, length, count);
    return needed;
  }

  private boolean fill() throws IOException {
    position = 0;
    limit = 0;
    for (int attempt = 0; attempt < MAX_EMPTY_READS; attempt++) {
      int read = readChunk();
      if (read != 0) {
        limit = Math.max(read, 0);
        return read > 0;
      }
    }
    throw new IOException("Cannot read event log: the stream returns no data and no end (" + currentPart + ")");
  }

  /** Up to a buffer of decoded bytes; -1 once the decoder ends or fails because the file ended inside its stream. */
  private int readChunk() throws IOException {
    if (drained) {
      return -1;
    }
    try {
      int read = in.read(buffer, 0, readLength());
      drained = read < 0;
      return read;
    } catch (IOException | RuntimeException e) {
      if (framed == null) {
        throw e;
      }
      if (!framed.cutShort()) {
        throw decodeFailure(e);
      }
      // The decoder could not finish the block the file cuts: what came before it is out, requireEndOfStream() follows.
      drained = true;
      return -1;
    }
  }

  /**
   * How many bytes to ask the decoder for: no more than it holds decoded, so that a read never spans two blocks. A
   * decoder that fails on a block the file cuts would otherwise lose the bytes it had copied from the blocks before it
   * in the same read.
   */
  private int readLength() throws IOException {
    return framed == null ? buffer.length : Math.max(1, Math.min(buffer.length, in.available()));
  }

  /**
   * Once the current part has given all its lines: fails when its file ended before its compressed stream did, unless
   * it is the last part of an in-progress log, whose writer may be in the middle of a block.
   */
  private void requireEndOfStream() throws IOException {
    boolean mayBeUnfinished = source.inProgress() && nextPart == source.parts().size();
    if (framed != null && framed.cutShort() && !mayBeUnfinished) {
      throw new IOException(String.format(Locale.ROOT,
          "Cannot read event log to its end: truncated %s stream (after %,d compressed bytes of %s)",
          source.codec().shortName(), framed.bytes(), currentPart));
    }
  }

  private IOException decodeFailure(Exception e) {
    String reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    return new IOException(
        String.format("Cannot decode %s stream: %s (%s)", source.codec(), reason, currentPart), e);
  }

  private void closePart() throws IOException {
    position = 0;
    limit = 0;
    framed = null;
    drained = false;
    if (in != null) {
      InputStream closing = in;
      in = null;
      closing.close();
    }
    currentPart = null;
  }
}
