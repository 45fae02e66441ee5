package org.perflab.jobs;

import org.perflab.jobs.cli.JobOutcome;
import org.perflab.jobs.cli.Preflight;
import org.perflab.jobs.cli.RunSummary;
import org.perflab.jobs.cli.SessionCommand;
import java.time.Clock;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.perflab.spark.features.FeatureInputs;
import org.perflab.spark.features.FeatureTables;
import org.perflab.spark.features.Features;
import org.perflab.spark.storage.ChangedLogs;
import org.perflab.table.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code perflab features}: per application attempt and stage attempt, the features that explain where an
 * application's time went, from the {@code ingest} tables, written as {@code workloads}, {@code app_features} and
 * {@code stage_features} under the output root. Incremental: only the logs re-ingested since the last run are
 * recomputed ({@link ChangedLogs}).
 *
 * <pre>
 * spark-submit --class org.perflab.jobs.PerfLab perflab-jobs.jar features --input ROOT [--output ROOT]
 *     [--workload-property KEY] [--full]
 * </pre>
 *
 * Options: docs/jobs.md; tables: docs/tables.md.
 */
@Command(
    name = "features",
    mixinStandardHelpOptions = true,
    description = "Compute workloads, app_features and stage_features from the ingest tables (incrementally).")
public final class FeaturesJob implements SessionCommand {
  private static final Logger LOG = LoggerFactory.getLogger(FeaturesJob.class);

  @Option(names = "--input", required = true, paramLabel = "ROOT", description = "Output root of ingest.")
  String input;

  @Option(names = "--output", paramLabel = "ROOT",
      description = "Where the tables and the watermark go. Default: the --input root.")
  String output;

  @Option(names = "--workload-property", paramLabel = "KEY",
      description = "A Spark property whose value names the workload when the spark.perflab.workload tag is absent"
          + " (HiBench's or your own tag). Default: none (the normalised application name).")
  String workloadProperty;

  @Option(names = "--full", description = "Recompute every application, not only the logs ingested since the last"
      + " run.")
  boolean full;

  @Override
  public String appName() {
    return "perflab features";
  }

  @Override
  public Work prepare() {
    Features.Options options = new Features.Options(input, output == null ? input : output,
        Optional.ofNullable(workloadProperty), full);
    Table[] needed = Stream.concat(Stream.of(FeatureInputs.TABLES), Stream.of(Table.INGEST_STATUS))
        .toArray(Table[]::new);
    Preflight.of(Features.JOB).ingestTables("--input", options.input(), needed)
        .outputRoot("--output", options.output());
    return spark -> {
      LOG.info("Computing features of the applications under {} into {}", options.input(), options.output());
      Features.Summary summary = Features.run(spark, options, Clock.systemUTC());
      return JobOutcome.printed(describe(summary) + "\n"
          + RunSummary.tables(spark, options.output(), FeatureTables.NAMES));
    };
  }

  /** The summary's first line, e.g. "features: incremental (1 logs changed since R) up to ingest run S, ...". */
  static String describe(Features.Summary summary) {
    ChangedLogs.Plan plan = summary.plan();
    String how = switch (plan.mode()) {
      case FULL -> "full run (" + plan.reason() + ")";
      case INCREMENTAL -> "incremental run from ingest run " + plan.sinceRunId().orElse("") + " ("
          + plan.reason() + ")";
      case UP_TO_DATE -> "up to date (" + plan.reason() + ")";
    };
    String rows = summary.rows().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
        .collect(Collectors.joining(", "));
    return String.format("features: %s, %d applications recomputed; rows written: %s", how,
        summary.applications(), rows);
  }
}
