package org.perflab.spark.features;

import java.util.Collection;
import java.util.function.UnaryOperator;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.perflab.errors.Actions;
import org.perflab.errors.BadInputException;
import org.perflab.spark.environment.EffectiveProperties;
import org.perflab.spark.storage.TableStore;
import org.perflab.table.KeyColumns;
import org.perflab.table.Table;

/** The ingest tables the feature transforms read, each with the columns of its {@link Table} schema. */
public record FeatureInputs(Dataset<Row> applications, Dataset<Row> jobs, Dataset<Row> stages, Dataset<Row> tasks,
    Dataset<Row> executors, Dataset<Row> properties) {

  /** The tables this record needs, for preflight. */
  public static final Table[] TABLES =
      {Table.APPLICATIONS, Table.JOBS, Table.STAGES, Table.TASKS, Table.EXECUTORS, Table.PROPERTIES};

  /**
   * The ingest tables under {@code store}'s root.
   *
   * @param action what the caller does, for "Cannot ACTION: no ingest tables under ROOT"
   */
  public static FeatureInputs read(TableStore store, String action) {
    return new FeatureInputs(read(store, Table.APPLICATIONS, action), read(store, Table.JOBS, action),
        read(store, Table.STAGES, action), read(store, Table.TASKS, action), read(store, Table.EXECUTORS, action),
        EffectiveProperties.read(store).orElseThrow(() -> missing(store, action)));
  }

  private static Dataset<Row> read(TableStore store, Table table, String action) {
    return store.read(table).orElseThrow(() -> missing(store, action));
  }

  private static BadInputException missing(TableStore store, String action) {
    String root = store.root().toString();
    return new BadInputException(String.format(
        "Cannot %s: no ingest tables under %s (run perflab ingest --output %s first)", Actions.of(action), root, root));
  }

  /** These tables with only the rows of {@code logIds}. */
  public FeatureInputs onlyLogs(Collection<String> logIds) {
    Object[] ids = logIds.toArray();
    return map(rows -> rows.where(functions.col(KeyColumns.LOG_ID).isin(ids)));
  }

  /**
   * These tables, each cached: the transforms of one run read every table several times (each table written, and
   * its row count, is a query over them), and a cached table is planned and scanned once, not once per query (every
   * scan of a Delta table lists its files in a Spark job). Call {@link #unpersist} when done.
   */
  public FeatureInputs cache() {
    return map(Dataset::cache);
  }

  /** Drops what {@link #cache} kept. */
  public void unpersist() {
    map(Dataset::unpersist);
  }

  private FeatureInputs map(UnaryOperator<Dataset<Row>> f) {
    return new FeatureInputs(f.apply(applications), f.apply(jobs), f.apply(stages), f.apply(tasks),
        f.apply(executors), f.apply(properties));
  }
}
