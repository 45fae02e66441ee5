package org.perflab.jobs;

import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.perflab.changes.DetectorOptions;
import org.perflab.errors.BadInputException;
import org.perflab.jobs.cli.JobOutcome;
import org.perflab.jobs.cli.Preflight;
import org.perflab.jobs.cli.RunSummary;
import org.perflab.jobs.cli.SessionCommand;
import org.perflab.spark.changes.ChangeTables;
import org.perflab.spark.changes.LatestRegressions;
import org.perflab.spark.changes.Regressions;
import org.perflab.spark.changes.RunInputs;
import org.perflab.spark.changes.RunPoint;
import org.perflab.spark.changes.RunProfiles;
import org.perflab.spark.features.FeatureTables;
import org.perflab.spark.storage.ChangedLogs;
import org.perflab.spark.storage.OutputLock;
import org.perflab.spark.storage.TableStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code perflab regressions}: judges every application ingested since the step's last run against the earlier runs
 * of its workload (wall time, core-hours, GB-hours: regression, improvement or within noise) and ranks the causes of
 * each regression; writes {@code regressions}. A rerun replaces the rows of the applications it judges again. Runs
 * after {@code features} (and {@code diagnose} in the nightly). Options: docs/jobs.md#regressions; method:
 * docs/regressions.md.
 *
 * <pre>
 * submit/perflab regressions --input ROOT [--output ROOT] [--min-history 5] [--full]
 * </pre>
 */
@Command(
    name = "regressions",
    mixinStandardHelpOptions = true,
    description = "Judge the newly ingested runs against their workload's history and rank the causes of regressions.")
public final class RegressionsJob implements SessionCommand {
  private static final Logger LOG = LoggerFactory.getLogger(RegressionsJob.class);

  /** The job's name: its messages, its lock and its watermark. */
  static final String JOB = "regressions";

  /** The options of {@code regressions}. */
  public record Options(String input, String output, int minHistory, boolean full) {
    public Options {
      output = output == null ? input : output;
      BadInputException.require(minHistory >= 2 && minHistory <= 1000,
          "Cannot judge regressions: --min-history must be in [2, 1000] (%s)", minHistory);
    }
  }

  /**
   * What a run did.
   *
   * @param plan what was recomputed
   * @param judged rows written
   * @param regressions of which regressions, by workload and first cause ({@link LatestRegressions#headline}),
   *     costliest first ({@link LatestRegressions#regressions})
   */
  public record Summary(ChangedLogs.Plan plan, long judged, List<String> regressions) {}

  @Option(names = "--input", required = true, paramLabel = "ROOT",
      description = "Output root of ingest and features.")
  String input;

  @Option(names = "--output", paramLabel = "ROOT", description = "Output root of the regressions table. Default:"
      + " --input.")
  String output;

  @Option(names = "--min-history", defaultValue = "" + DetectorOptions.DEFAULT_MIN_HISTORY, paramLabel = "N",
      description = "Earlier runs a workload needs before a verdict, in [2, 1000]. Default: ${DEFAULT-VALUE}.")
  int minHistory;

  @Option(names = "--full", description = "Judge every application again, not only the logs ingested since the last"
      + " run.")
  boolean full;

  @Override
  public String appName() {
    return "perflab regressions";
  }

  @Override
  public Work prepare() {
    Options options = new Options(input, output, minHistory, full);
    Preflight.of(JOB).featuresTable("--input", options.input(), FeatureTables.WORKLOADS_TABLE)
        .featuresTable("--input", options.input(), FeatureTables.APP_FEATURES_TABLE)
        .outputRoot("--output", options.output());
    return spark -> {
      Summary summary = run(spark, Clock.systemUTC(), options);
      return JobOutcome.printed(describe(summary) + "\n" + RunSummary.tables(spark, options.output(),
          List.of(ChangeTables.REGRESSIONS_TABLE)));
    };
  }

  /**
   * Judges the applications ingested since the last run (all with {@code --full} or without a watermark) and writes
   * their rows, replacing earlier rows of the same logs, holding the output root's lock.
   */
  public static Summary run(SparkSession spark, Clock clock, Options options) {
    TableStore input = new TableStore(spark, options.input());
    TableStore out = new TableStore(spark, options.output());
    ChangedLogs changed = new ChangedLogs(input, out, JOB);
    try (OutputLock lock = OutputLock.acquire(out.fileSystem(), out.root(), JOB, clock)) {
      RunInputs in = RunInputs.read(input, "judge regressions");
      ChangedLogs.Plan plan = changed.plan(options.full(), List.of(ChangeTables.REGRESSIONS_TABLE));
      LOG.info("regressions: {} ({})", plan.mode(), plan.reason());
      if (plan.mode() == ChangedLogs.Mode.UP_TO_DATE) {
        changed.commit(plan);
        return new Summary(plan, 0, List.of());
      }
      spark.sparkContext().setJobDescription("Judge runs against their workload's history");
      List<RunPoint> runs = RunPoint.collect(in.workloads(), in.appFeatures());
      Set<String> judged = plan.incremental() ? plan.logIds()
          : runs.stream().map(RunPoint::logId).collect(Collectors.toCollection(TreeSet::new));
      List<Row> rows = Regressions.judge(runs, judged, DetectorOptions.withMinHistory(options.minHistory()),
          logs -> RunProfiles.of(in, logs), logs -> RunProfiles.settings(in, logs), clock.millis());
      Dataset<Row> table = spark.createDataFrame(rows, ChangeTables.REGRESSIONS).coalesce(1);
      changed.write(plan, ChangeTables.REGRESSIONS_TABLE, table);
      changed.commit(plan);
      List<String> regressions = LatestRegressions.regressions(table).collectAsList().stream()
          .map(LatestRegressions::headline).toList();
      return new Summary(plan, rows.size(), regressions);
    }
  }

  /**
   * The summary: the counts on its first line (the step's message in {@code nightly_runs}), then what regressed,
   * costliest first, at most {@link LatestRegressions#SUMMARY_LINES} lines and one that counts the rest.
   */
  static String describe(Summary summary) {
    ChangedLogs.Plan plan = summary.plan();
    String how = switch (plan.mode()) {
      case FULL -> "full run";
      case INCREMENTAL -> "incremental run";
      case UP_TO_DATE -> "up to date";
    };
    StringBuilder text = new StringBuilder(String.format(Locale.ROOT,
        "regressions: %s (%s): %d applications judged, %d regressions", how, plan.reason(), summary.judged(),
        summary.regressions().size()));
    LatestRegressions.bounded(summary.regressions()).forEach(line -> text.append('\n').append(line));
    return text.toString();
  }
}
