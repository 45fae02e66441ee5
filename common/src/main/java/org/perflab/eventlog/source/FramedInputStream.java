package org.perflab.eventlog.source;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * The compressed bytes of one part, as its decoder pulls them: counts them, shows them to the codec's
 * {@link StreamFraming}, and notes when the file ends, so that once the decoder stops one can tell whether the stream
 * was cut short. Mark and reset are not supported.
 */
final class FramedInputStream extends FilterInputStream {
  private final StreamFraming framing;
  private long bytes;
  private boolean endOfFile;

  FramedInputStream(InputStream in, StreamFraming framing) {
    super(in);
    this.framing = framing;
  }

  /** The compressed bytes read so far. */
  long bytes() {
    return bytes;
  }

  /**
   * Whether the file has ended where the format does not let the stream end: the stream was cut. False while the file
   * has more bytes, and false when the framing could not follow the bytes (the decoder's error then says more).
   */
  boolean cutShort() {
    return endOfFile && !framing.mayEndHere();
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) == 1 ? one[0] & 0xff : -1;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    int read = in.read(b, off, len);
    if (read > 0) {
      bytes += read;
      framing.update(b, off, read);
    } else if (read < 0) {
      endOfFile = true;
    }
    return read;
  }

  /** Skips by reading, so that the framing sees every byte. */
  @Override
  public long skip(long n) throws IOException {
    byte[] scratch = new byte[(int) Math.min(Math.max(n, 0), 8192)];
    long skipped = 0;
    while (skipped < n) {
      int read = read(scratch, 0, (int) Math.min(scratch.length, n - skipped));
      if (read < 0) {
        break;
      }
      skipped += read;
    }
    return skipped;
  }

  @Override
  public boolean markSupported() {
    return false;
  }

  @Override
  public synchronized void mark(int readlimit) {
    // Not supported: reset() throws.
  }

  @Override
  public synchronized void reset() throws IOException {
    throw new IOException("Cannot reset a compressed event-log part: mark is not supported");
  }
}
