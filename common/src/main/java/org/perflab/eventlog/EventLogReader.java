package org.perflab.eventlog;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.Iterator;
import org.apache.hadoop.conf.Configuration;
import org.perflab.eventlog.parse.EventLogParser;
import org.perflab.eventlog.parse.LogIdentity;
import org.perflab.eventlog.parse.Utf8Lines;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.eventlog.source.EventLogLines;
import org.perflab.eventlog.source.EventLogSource;
import org.perflab.table.TableRow;

/**
 * Reads one event log, on any Hadoop file system and in any of Spark's layouts and codecs, into table rows, streaming
 * in constant memory. The log is closed when its rows are exhausted. Never throws for bad content: what cannot be
 * read is reported in the log's {@code ingest_status} row.
 */
public final class EventLogReader {
  private EventLogReader() {}

  /** The parser's view of a discovered log. */
  public static LogIdentity identity(EventLogSource source) {
    return new LogIdentity(
        source.logId(),
        source.path(),
        source.layout().name(),
        source.codec().name(),
        source.bytes(),
        source.modificationTimeMs(),
        source.inProgress(),
        LogIdentity.appIdFromPath(source.path()),
        source.sparkVersionHint());
  }

  public static Iterator<TableRow> rows(EventLogSource source, Configuration conf, Redactor redactor, Clock clock) {
    EventLogLines lines = EventLogLines.open(source, conf);
    EventLogParser parser = new EventLogParser(identity(source), utf8(lines), redactor, clock);
    return new ClosingIterator(parser, lines);
  }

  /**
   * The parser's view of {@link EventLogLines}: its lines as bytes, not decoded; a read failure surfaces as
   * {@link UncheckedIOException}.
   */
  public static Utf8Lines utf8(EventLogLines lines) {
    return new Utf8Lines() {
      @Override
      public boolean advance() {
        try {
          return lines.advance();
        } catch (IOException e) {
          throw new UncheckedIOException(e.getMessage(), e);
        }
      }

      @Override
      public byte[] bytes() {
        return lines.lineBytes();
      }

      @Override
      public int start() {
        return lines.lineStart();
      }

      @Override
      public int end() {
        return lines.lineEnd();
      }

      @Override
      public boolean lastLineTerminated() {
        return lines.lastLineTerminated();
      }
    };
  }

  /** Closes the log once the last row has been taken. */
  private static final class ClosingIterator implements Iterator<TableRow> {
    private final Iterator<TableRow> rows;
    private final AutoCloseable resource;
    private boolean closed;

    ClosingIterator(Iterator<TableRow> rows, AutoCloseable resource) {
      this.rows = rows;
      this.resource = resource;
    }

    @Override
    public boolean hasNext() {
      boolean more = rows.hasNext();
      if (!more && !closed) {
        closed = true;
        try {
          resource.close();
        } catch (Exception e) {
          // Every row is out; a failure to close the stream loses nothing.
        }
      }
      return more;
    }

    @Override
    public TableRow next() {
      return rows.next();
    }
  }
}
