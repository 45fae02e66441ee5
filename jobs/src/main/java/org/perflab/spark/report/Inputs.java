package org.perflab.spark.report;

import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.perflab.spark.storage.TableStore;

/** The tables a report reads, under the input root (and {@code workload_history} under the output root). */
public final class Inputs {
  private final TableStore input;
  private final TableStore output;

  public Inputs(SparkSession spark, ReportOptions options) {
    this.input = new TableStore(spark, options.input());
    this.output = new TableStore(spark, options.output());
  }

  /** The table under the input root, or empty when it does not exist. */
  public Optional<Dataset<Row>> read(String table) {
    return input.read(table);
  }

  /** The table under the output root (where {@code workload_history} is kept), or empty. */
  public Optional<Dataset<Row>> readOutput(String table) {
    return output.read(table);
  }

  public TableStore output() {
    return output;
  }

  /** The note a section shows in place of a table that does not exist. */
  public String missing(String table, String producer) {
    return String.format("No %s table under %s: run perflab %s to fill this section.", table, input.root(), producer);
  }
}
