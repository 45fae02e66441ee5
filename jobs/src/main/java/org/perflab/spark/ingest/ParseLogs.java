package org.perflab.spark.ingest;

import java.time.Clock;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.api.java.function.PairFlatMapFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Row;
import org.apache.spark.util.LongAccumulator;
import org.apache.spark.util.SerializableConfiguration;
import org.perflab.eventlog.EventLogReader;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.eventlog.source.EventLogSource;
import org.perflab.table.Table;
import org.perflab.table.TableRow;
import scala.Tuple2;

/**
 * Runs on executors: a group of logs in, their rows of every table out, streamed log by log, each keyed by its
 * partition in {@link TablePartitioner}'s layout and counted in its table's accumulator. A {@code property_sets} row
 * that an earlier log of the group already yielded is dropped here, before the shuffle.
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
      /** (set id, key) of the property set rows this task emitted: a set shared by its logs travels once. */
      private final Set<String> emittedSetRows = new HashSet<>();
      private TableRow next;

      @Override
      public boolean hasNext() {
        while (next == null) {
          while (!rows.hasNext() && sources.hasNext()) {
            rows = EventLogReader.rows(sources.next(), conf, redactor, Clock.systemUTC());
          }
          if (!rows.hasNext()) {
            return false;
          }
          TableRow row = rows.next();
          if (row.table() != Table.PROPERTY_SETS || emittedSetRows.add(row.get("set_id") + "\n" + row.get("key"))) {
            next = row;
          }
        }
        return true;
      }

      @Override
      public Tuple2<Integer, Row> next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        TableRow row = next;
        next = null;
        rowsByTable[row.table().ordinal()].add(1);
        return new Tuple2<>(partitioner.key(row), UnionRows.external(row));
      }
    };
  }
}
