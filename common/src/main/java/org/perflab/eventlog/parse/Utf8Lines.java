package org.perflab.eventlog.parse;

/**
 * The lines of one event log as UTF-8 bytes, one at a time, so that the parser can scan task events without decoding
 * them into strings. A line is {@code bytes()[start(), end())}, without its terminator, valid until the next
 * {@link #advance()}.
 */
public interface Utf8Lines {
  /**
   * Moves to the next line.
   *
   * @return false after the last line
   * @throws java.io.UncheckedIOException when the log cannot be read further; the parser ends the log there
   */
  boolean advance();

  /** The array holding the current line. */
  byte[] bytes();

  /** Where the current line starts in {@link #bytes()}. */
  int start();

  /** Where the current line ends (exclusive) in {@link #bytes()}. */
  int end();

  /** Once {@link #advance()} has returned false: whether the final line ended with a newline. */
  boolean lastLineTerminated();
}
