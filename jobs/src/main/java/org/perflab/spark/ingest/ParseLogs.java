package org.perflab.spark.ingest;

import java.time.Clock;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.api.java.function.PairFlatMapFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Row;
import org.apache.spark.util.LongAccumulator;
import org.apache.spark.util.SerializableConfiguration;
import org.perflab.eventlog.EventLogReader;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.eventlog.source.EventLogSource;
import org.perflab.table.TableRow;
import scala.Tuple2;

/**
 * Runs on executors: a group of logs in, their rows of every table out, streamed log by log, each keyed by its
 * partition in {@link TablePartitioner}'s layout and counted in its table's accumulator.
 */
final class ParseLogs implements PairFlatMapFunction<List<EventLogSource>, Integer, Row> {
  private final Broadcast<SerializableConfiguration> hadoopConf;
  private final Redactor redactor;
  private final TablePartitioner partitioner;
  private final LongAccumulator[] rowsByTable;

  /** @param rowsByTable one accumulator per table, in {@link org.perflab.table.Table} order */
  ParseLogs(Broadcast<SerializableConfiguration> hadoopConf, Redactor redactor, TablePartitioner partitioner,
      LongAccumulator[] rowsByTable) {
    this.hadoopConf = hadoopConf;
    this.redactor = redactor;
    this.partitioner = partitioner;
    this.rowsByTable = rowsByTable.clone();
  }

  @Override
  public Iterator<Tuple2<Integer, Row>> call(List<EventLogSource> group) {
    Configuration conf = hadoopConf.value().value();
    Iterator<EventLogSource> sources = group.iterator();
    return new Iterator<>() {
      private Iterator<TableRow> rows = Collections.emptyIterator();

      @Override
      public boolean hasNext() {
        while (!rows.hasNext() && sources.hasNext()) {
          rows = EventLogReader.rows(sources.next(), conf, redactor, Clock.systemUTC());
        }
        return rows.hasNext();
      }

      @Override
      public Tuple2<Integer, Row> next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        TableRow row = rows.next();
        rowsByTable[row.table().ordinal()].add(1);
        return new Tuple2<>(partitioner.key(row), UnionRows.external(row));
      }
    };
  }
}
