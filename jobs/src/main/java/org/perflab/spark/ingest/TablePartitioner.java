package org.perflab.spark.ingest;

import org.apache.spark.Partitioner;
import org.perflab.table.KeyColumns;
import org.perflab.table.Table;
import org.perflab.table.TableRow;

/**
 * Lays the parsed rows out by table: {@code files} consecutive partitions per table, in {@link Table} order, a log's
 * rows of one table all in one partition. The parse shuffles its rows into this layout once, so that each table's
 * write, and the collects of {@code ingest_status} and {@code applications}, read only their own table's rows.
 * Reading one persisted union of every table once per table deserialized every row about thirteen times
 * ({@code ObjectInputStream} was 35 % of the stack samples of an ingest of 1,000 logs).
 */
final class TablePartitioner extends Partitioner {
  private static final long serialVersionUID = 1L;

  private final int files;

  /** @param files partitions (written files) per table, at least 1 */
  TablePartitioner(int files) {
    this.files = Math.max(1, files);
  }

  @Override
  public int numPartitions() {
    return Table.values().length * files;
  }

  /** The key is the partition itself, as {@link #key} made it. */
  @Override
  public int getPartition(Object key) {
    return (Integer) key;
  }

  /**
   * The partition of {@code row}: its table's first partition, plus its log's share (for a row that logs share, the
   * share of its first column, its content's id).
   */
  int key(TableRow row) {
    Object owner = row.table().keys() == Table.Keys.LOG ? row.get(KeyColumns.LOG_ID) : row.values()[0];
    int share = owner == null ? 0 : Math.floorMod(owner.hashCode(), files);
    return row.table().ordinal() * files + share;
  }

  /** The partitions of {@code table}: {@code [first, first + files)}. */
  int first(Table table) {
    return table.ordinal() * files;
  }

  int files() {
    return files;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof TablePartitioner that && that.files == files;
  }

  @Override
  public int hashCode() {
    return files;
  }
}
