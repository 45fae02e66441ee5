package org.perflab.jobs;

import org.perflab.jobs.cli.Preflight;
import org.perflab.jobs.cli.SessionCommand;
import org.perflab.jobs.cli.JobOutcome;
import java.time.Clock;
import java.util.List;
import org.perflab.spark.report.Report;
import org.perflab.spark.report.ReportOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code perflab report}: a static, self-contained HTML site of the tables under {@code --input}, at
 * {@code <output>/report/index.html}, after appending the night's rows to {@code <output>/workload_history}. Usage:
 *
 * <pre>
 * submit/perflab report [--input ROOT] [--output ROOT] [--apps ID,...] [--top N]
 * </pre>
 *
 * <p>Missing tables give notes, not errors. Pages, security and scale: docs/report.md; options: docs/jobs.md.
 */
@Command(
    name = "report",
    mixinStandardHelpOptions = true,
    description = "Write a static HTML report of the tables (overview, workloads, applications) under ROOT/report/.")
public final class ReportJob implements SessionCommand {
  private static final Logger LOG = LoggerFactory.getLogger(ReportJob.class);

  @Option(names = "--input", defaultValue = "perflab-output", paramLabel = "ROOT",
      description = "Output root of the other jobs, whose tables the report shows. Default: ${DEFAULT-VALUE}.")
  String input;

  @Option(names = "--output", paramLabel = "ROOT",
      description = "Root of the report (ROOT/report/) and of workload_history. Default: --input.")
  String output;

  @Option(names = "--apps", split = ",", paramLabel = "ID",
      description = "Application ids or log ids that also get a page (besides those the overview links to).")
  List<String> apps = List.of();

  @Option(names = "--top", defaultValue = "" + ReportOptions.DEFAULT_TOP, paramLabel = "N",
      description = "Rows of each top list, and applications the overview links to. Default: ${DEFAULT-VALUE}.")
  int top;

  @Override
  public String appName() {
    return "perflab report";
  }

  @Override
  public Work prepare() {
    ReportOptions options = new ReportOptions(input, output == null ? input : output, apps, top);
    Preflight.of("write the report").outputRoot("--output", options.output());
    return spark -> {
      LOG.info("Writing the report of {} into {}", options.input(), options.output());
      Report.Summary summary = Report.run(spark, options, Clock.systemUTC());
      JobOutcome outcome = JobOutcome.printed(String.format("report: %d pages (%d workloads, %d applications); workload_history: %d rows "
              + "of run %s%n  report: %s", summary.pages(), summary.workloadPages(), summary.applicationPages(),
          summary.historyRows(), summary.night().runId(), summary.index()));
      return outcome;
    };
  }
}
