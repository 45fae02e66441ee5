package org.perflab.jobs;

import org.perflab.jobs.cli.Preflight;
import org.perflab.jobs.cli.RunSummary;
import org.perflab.jobs.cli.SessionCommand;
import org.perflab.jobs.cli.JobOutcome;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.perflab.errors.BadInputException;
import org.perflab.spark.memory.MemoryParams;
import org.perflab.spark.memory.MemoryRun;
import org.perflab.spark.memory.MemoryTables;
import org.perflab.spark.memory.SkewTable;
import org.perflab.memory.TraceFilters;
import org.perflab.spark.storage.TableStore;
import org.perflab.table.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code perflab memory}: recommends executor memory settings per application and per workload from the event logs'
 * lineage (reference 004 Tier A) and writes {@code memory_recommendations} under {@code --output}, replaced whole by
 * every run; with {@code --skew-table} it also runs reference 004's Table 5.3 Monte Carlo as a Spark job into
 * {@code memory_skew}. Usage:
 *
 * <pre>
 * submit/perflab memory --input ROOT [--output ROOT] [--safety-factor F] [--skew-table [--skew-runs N]]
 * </pre>
 *
 * <p>Options: docs/jobs.md; the tables: docs/tables.md#memory_recommendations; the model: docs/memory.md.
 */
@Command(
    name = "memory",
    mixinStandardHelpOptions = true,
    description = "Recommend spark.executor.memory, memory fractions and overhead per application and workload from"
        + " the event logs' lineage (LRU stack analysis); write memory_recommendations.")
public final class MemoryJob implements SessionCommand {
  private static final Logger LOG = LoggerFactory.getLogger(MemoryJob.class);
  /** How the job's messages name what it does: "Cannot recommend memory: ...". */
  static final String ACTION = "recommend memory";
  static final Table[] TABLES = {Table.APPLICATIONS, Table.STAGES, Table.TASKS, Table.EXECUTORS};

  /**
   * The options of {@code memory}.
   *
   * @param input the root of the ingest tables (and of {@code workloads}, when features wrote it)
   * @param output the root memory's tables go to
   * @param safetyFactor heap over the framework's managed need, at least 1
   * @param skewRuns runs per cell of the Table 5.3 Monte Carlo; 0 to skip it
   * @param seed the Monte Carlo's seed
   * @param full recommend every application, not only those of the logs ingested since the last run
   */
  public record Options(String input, String output, double safetyFactor, int skewRuns, long seed, boolean full) {
    /** Checks the values: "Cannot recommend memory: --safety-factor must be at least 1 (0.5)". */
    public Options {
      BadInputException.require(safetyFactor >= 1 && Double.isFinite(safetyFactor),
          "Cannot %s: --safety-factor must be at least 1 (%s)", ACTION, safetyFactor);
      BadInputException.require(skewRuns >= 0, "Cannot %s: --skew-runs must be at least 0 (%d)", ACTION, skewRuns);
    }

    /** Options of an incremental run. */
    public Options(String input, String output, double safetyFactor, int skewRuns, long seed) {
      this(input, output, safetyFactor, skewRuns, seed, false);
    }
  }

  /**
   * What a run wrote.
   *
   * @param applications application rows
   * @param recommended application rows with a recommendation
   * @param workloads workload rows (0 without a workloads table)
   * @param skewCells cells of memory_skew written (0 when not asked)
   */
  public record Outcome(long applications, long recommended, long workloads, long skewCells,
      org.perflab.spark.memory.TierB.Scan telemetry) {}

  @Option(names = "--input", required = true, paramLabel = "ROOT",
      description = "Output root of ingest (and features: its workloads table gives the workload rows).")
  String input;

  @Option(names = "--output", paramLabel = "ROOT", description = "Where memory_recommendations goes. Default: --input.")
  String output;

  @Option(names = "--safety-factor", paramLabel = "F", defaultValue = "1.5",
      description = "Heap over the framework's managed memory without GC data, at least 1. Default: ${DEFAULT-VALUE}"
          + " (reference 004's first-run rule).")
  double safetyFactor;

  @Option(names = "--skew-table", description = "Also run reference 004's Table 5.3 Monte Carlo into memory_skew.")
  boolean skewTable;

  @Option(names = "--skew-runs", paramLabel = "N", defaultValue = "1000",
      description = "Runs per cell of the Monte Carlo, at least 1. Default: ${DEFAULT-VALUE}.")
  int skewRuns;

  @Option(names = "--seed", paramLabel = "N", defaultValue = "53",
      description = "Seed of the Monte Carlo. Default: ${DEFAULT-VALUE}.")
  long seed;

  @Option(names = "--full", description = "Recommend for every application, not only the logs ingested since the"
      + " last run.")
  boolean full;

  @Override
  public String appName() {
    return "perflab memory";
  }

  @Override
  public Work prepare() {
    Options options = new Options(input, output == null ? input : output, safetyFactor, skewTable ? skewRuns : 0,
        seed, full);
    BadInputException.require(!skewTable || skewRuns >= 1, "Cannot %s: --skew-runs must be at least 1 (%d)", ACTION,
        skewRuns);
    Preflight.of(ACTION).ingestTables("--input", options.input(), TABLES).outputRoot("--output", options.output());
    return spark -> {
      LOG.info("Recommending memory for the applications under {} into {}", options.input(), options.output());
      Outcome outcome = run(spark, options);
      org.perflab.spark.memory.TierB.Scan telemetry = outcome.telemetry();
      JobOutcome printed = JobOutcome.printed(String.format("  applications: %d (%d with a recommendation); workloads: %d%s%n"
          + "  tier B: %d telemetry directories, %d with a GC-model heap, %d fell back to tier A; problems %s%n%s",
          outcome.applications(), outcome.recommended(), outcome.workloads(),
          outcome.skewCells() > 0 ? "; memory_skew cells: " + outcome.skewCells() : "",
          telemetry.directories(), telemetry.advice().size(), telemetry.fellBack(), telemetry.problems(),
          RunSummary.tables(spark, options.output(), MemoryTables.NAMES)));
      return printed;
    };
  }

  /**
   * Recommends memory for the applications of the logs ingested since the last run under {@code --input} (every one
   * with {@code --full}) and writes the tables ({@link MemoryRun}); says what it wrote.
   */
  static Outcome run(SparkSession spark, Options options) {
    TableStore in = new TableStore(spark, options.input());
    spark.sparkContext().setJobDescription("Recommend memory for " + options.input());
    MemoryParams params = new MemoryParams(options.safetyFactor(), TraceFilters.SMALL_BROADCAST_BYTES);
    TableStore out = new TableStore(spark, options.output());
    MemoryRun.Result result = MemoryRun.recommend(in, out, params, options.full());
    LOG.info("memory: {} ({})", result.plan().mode(), result.plan().reason());
    Dataset<Row> rows = result.rows().cache();
    try {
      Dataset<Row> apps = rows.where("scope = 'application'");
      Outcome outcome = new Outcome(apps.count(), apps.where("reason IS NULL").count(),
          rows.where("scope = 'workload'").count(), 0, result.telemetry());
      MemoryRun.write(in, out, result);
      long skewCells = 0;
      if (options.skewRuns() > 0) {
        Dataset<Row> skew = SkewTable.of(spark, SkewTable.MEANS, SkewTable.SDS, SkewTable.MACHINES,
            options.skewRuns(), 100, options.seed());
        out.overwrite(MemoryTables.SKEW_TABLE, skew.coalesce(1));
        skewCells = (long) SkewTable.MEANS.length * SkewTable.SDS.length;
      }
      return new Outcome(outcome.applications(), outcome.recommended(), outcome.workloads(), skewCells,
          outcome.telemetry());
    } finally {
      rows.unpersist();
    }
  }
}
