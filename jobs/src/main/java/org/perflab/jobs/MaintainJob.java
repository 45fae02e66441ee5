package org.perflab.jobs;

import org.perflab.jobs.cli.Preflight;
import org.perflab.jobs.cli.RunSummary;
import org.perflab.jobs.cli.SessionCommand;
import org.perflab.jobs.cli.JobOutcome;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.perflab.errors.BadInputException;
import org.perflab.spark.storage.Maintenance;
import org.perflab.spark.storage.OutputLock;
import org.perflab.spark.storage.TableStore;
import org.perflab.spark.storage.TestPause;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code perflab maintain}: keeps every table under an output root to a bounded number of files, with
 * {@code OPTIMIZE} and {@code VACUUM}. The nightly pipeline runs it after ingest. Options: docs/jobs.md.
 */
@Command(
    name = "maintain",
    mixinStandardHelpOptions = true,
    description = "Compact (OPTIMIZE) and VACUUM every Delta table under an output root.")
public final class MaintainJob implements SessionCommand {

  /**
   * The options of {@code maintain}.
   *
   * @param output the output root whose tables are maintained
   * @param retention VACUUM's retention: files no version younger than this reads are deleted; null skips VACUUM
   * @param compactMinFiles the files a table holds at least before it is compacted (at least 2)
   */
  public record Options(String output, Duration retention, int compactMinFiles) {
    public Options {
      BadInputException.require(retention == null || !retention.isNegative(),
          "Cannot maintain: --retention-hours must be >= 0 (%s)", retention);
      BadInputException.require(compactMinFiles >= 2,
          "Cannot maintain: --compact-min-files must be >= 2 (%s)", compactMinFiles);
    }
  }

  @Option(names = "--output", required = true, paramLabel = "DIR", description = "Output root of the tables.")
  String output;

  @Option(names = "--retention-hours", defaultValue = "168", paramLabel = "HOURS",
      description = "VACUUM retention: older versions stay readable (time travel) this long. Default: "
          + "${DEFAULT-VALUE} (7 days).")
  double retentionHours;

  @Option(names = "--no-vacuum", description = "Only compact; delete no files.")
  boolean noVacuum;

  @Option(names = "--compact-min-files", defaultValue = "" + Maintenance.DEFAULT_COMPACT_MIN_FILES, paramLabel = "N",
      description = "Compact a table once it holds at least N files (>= 2; 2 compacts every table of several files)."
          + " Default: ${DEFAULT-VALUE}.")
  int compactMinFiles;

  @Override
  public String appName() {
    return "perflab maintain";
  }

  @Override
  public Work prepare() {
    BadInputException.require(retentionHours >= 0 && Double.isFinite(retentionHours),
        "Cannot maintain: --retention-hours must be >= 0 (%s)", retentionHours);
    Options options = new Options(output,
        noVacuum ? null : Duration.ofMillis(Math.round(retentionHours * 3_600_000)), compactMinFiles);
    Preflight.of("maintain").directory("--output", output, "the output root of an ingest run")
        .outputRoot("--output", output);
    return spark -> {
      List<Maintenance.Outcome> outcomes = run(spark, options, Clock.systemUTC());
      for (Maintenance.Outcome o : outcomes) {
        System.out.printf("maintain: %s files %d -> %d, bytes %d -> %d%s%n", o.table(), o.before().files(),
            o.after().files(), o.before().bytes(), o.after().bytes(), o.vacuumed() ? ", vacuumed" : "");
      }
      return JobOutcome.printed(String.format("maintain: %d tables maintained%n%s", outcomes.size(),
          RunSummary.tables(spark, options.output(), outcomes.stream().map(Maintenance.Outcome::table).toList())));
    };
  }

  /** Maintains every table under the root while holding its lock. */
  static List<Maintenance.Outcome> run(SparkSession spark, Options options, Clock clock) {
    TableStore store = new TableStore(spark, options.output());
    BadInputException.require(!store.tableDirectories().isEmpty(),
        "Cannot maintain: no tables under %s (run perflab ingest --output %s first)", options.output(),
        options.output());
    try (OutputLock lock = OutputLock.acquire(store.fileSystem(), store.root(), "maintain", clock)) {
      return new Maintenance(spark, store, clock, options.compactMinFiles()).maintainAll(options.retention(), TestPause.fromEnvironment());
    }
  }
}
