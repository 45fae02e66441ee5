package org.perflab.ingest;

import java.time.Clock;
import java.util.Iterator;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Row;
import org.apache.spark.util.SerializableConfiguration;
import org.perflab.eventlog.EventLogReader;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.eventlog.source.EventLogSource;

/** Runs on executors: one log in, its rows of every table out, streamed. */
final class ParseLogs implements FlatMapFunction<EventLogSource, Row> {
  private final Broadcast<SerializableConfiguration> hadoopConf;
  private final Redactor redactor;

  ParseLogs(Broadcast<SerializableConfiguration> hadoopConf, Redactor redactor) {
    this.hadoopConf = hadoopConf;
    this.redactor = redactor;
  }

  @Override
  public Iterator<Row> call(EventLogSource source) {
    Configuration conf = hadoopConf.value().value();
    Iterator<org.perflab.table.TableRow> rows = EventLogReader.rows(source, conf, redactor, Clock.systemUTC());
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return rows.hasNext();
      }

      @Override
      public Row next() {
        return UnionRows.pack(rows.next());
      }
    };
  }
}
