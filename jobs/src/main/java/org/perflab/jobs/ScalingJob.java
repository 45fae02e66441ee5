package org.perflab.jobs;

import org.perflab.jobs.cli.Preflight;
import org.perflab.jobs.cli.RunSummary;
import org.perflab.jobs.cli.SessionCommand;
import org.perflab.jobs.cli.JobOutcome;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.perflab.spark.features.FeatureInputs;
import org.perflab.spark.features.FeatureTables;
import org.perflab.spark.features.WorkloadTable;
import org.perflab.spark.scaling.ScalingFits;
import org.perflab.spark.scaling.ScalingSummary;
import org.perflab.spark.scaling.ScalingTables;
import org.perflab.spark.storage.TableStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code perflab scaling}: fits the scaling laws of reference 003 (Amdahl, Gustafson, a/n + b·√n, a/n + b·n^c) to
 * every series of runs that differ only in executor count, and Ernest's model across input sizes, from the
 * {@code workloads} table of {@code perflab features}, and writes {@code scaling_fits} under {@code --output}, replaced
 * whole by every run (one Delta commit). Without a {@code workloads} table it computes one from the ingest tables,
 * as {@code features} would without {@code --workload-property}, and does not write it. Usage:
 *
 * <pre>
 * submit/perflab scaling --input ROOT [--output ROOT]
 * </pre>
 *
 * <p>Options: docs/jobs.md; the table: docs/tables.md#scaling_fits.
 */
@Command(
    name = "scaling",
    mixinStandardHelpOptions = true,
    description = "Fit Amdahl, Gustafson, a/n + b·sqrt(n), a/n + b·n^c per series of runs, and Ernest across input"
        + " sizes; write scaling_fits.")
public final class ScalingJob implements SessionCommand {
  private static final Logger LOG = LoggerFactory.getLogger(ScalingJob.class);
  /** How the job's messages name what it does: "Cannot fit scaling laws: ...". */
  static final String ACTION = "fit scaling laws";

  /** The options of {@code scaling}: the root of the ingest tables (and {@code workloads}), and the output root. */
  public record Options(String input, String output) {}

  /**
   * What a run did.
   *
   * @param workloadsComputed whether {@code workloads} was computed from the ingest tables, there being no such table
   * @param fits what it fitted
   */
  public record Outcome(boolean workloadsComputed, ScalingSummary fits) {}

  @Option(names = "--input", required = true, paramLabel = "ROOT",
      description = "Output root of ingest and features: reads ROOT/workloads, or computes it from the ingest tables"
          + " when absent.")
  String input;

  @Option(names = "--output", paramLabel = "ROOT", description = "Where scaling_fits goes. Default: the --input root.")
  String output;

  @Override
  public String appName() {
    return "perflab scaling";
  }

  @Override
  public Work prepare() {
    Options options = new Options(input, output == null ? input : output);
    Preflight.of(ACTION).ingestTables("--input", options.input(), FeatureInputs.TABLES)
        .outputRoot("--output", options.output());
    return spark -> {
      LOG.info("Fitting scaling laws to the runs under {} into {}", options.input(), options.output());
      Outcome outcome = run(spark, options);
      JobOutcome printed = JobOutcome.printed(outcome.fits().lines() + (outcome.workloadsComputed() ? "\n  workloads: computed from the"
          + " ingest tables (no workloads table under " + options.input() + "; perflab features writes it)" : "")
          + "\n" + RunSummary.tables(spark, options.output(), ScalingTables.NAMES));
      return printed;
    };
  }

  /** Fits every series and Ernest group of the runs under {@code --input}, writes {@code scaling_fits}; says what. */
  static Outcome run(SparkSession spark, Options options) {
    TableStore in = new TableStore(spark, options.input());
    Optional<Dataset<Row>> table = in.read(FeatureTables.WORKLOADS_TABLE);
    Dataset<Row> workloads = table.orElseGet(() -> WorkloadTable.of(FeatureInputs.read(in, ACTION), Optional.empty()));
    spark.sparkContext().setJobDescription("Fit scaling laws to the runs of " + options.input());
    Dataset<Row> fits = ScalingFits.of(workloads).cache();
    try {
      new TableStore(spark, options.output()).overwrite(ScalingTables.FITS_TABLE, fits.coalesce(1));
      return new Outcome(table.isEmpty(), ScalingSummary.of(fits));
    } finally {
      fits.unpersist();
    }
  }
}
