package org.perflab.jobs;

import org.perflab.jobs.cli.Preflight;
import org.perflab.jobs.cli.RunSummary;
import org.perflab.jobs.cli.SessionCommand;
import org.perflab.jobs.cli.JobOutcome;
import static org.apache.spark.sql.functions.col;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.perflab.errors.BadInputException;
import org.perflab.spark.features.FeatureInputs;
import org.perflab.spark.features.FeatureTables;
import org.perflab.spark.features.WorkloadTable;
import org.perflab.prediction.Run;
import org.perflab.spark.prediction.RunTable;
import org.perflab.recommend.ClusterProfile;
import org.perflab.recommend.Objective;
import org.perflab.recommend.Prices;
import org.perflab.recommend.RecommendCheck;
import org.perflab.spark.recommend.RecommendInputs;
import org.perflab.spark.recommend.RecommendTables;
import org.perflab.spark.recommend.Recommendations;
import org.perflab.spark.storage.DeltaSessions;
import org.perflab.spark.storage.TableStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code perflab recommend}: one row per workload and input-size class with the configuration to set (executors,
 * cores, memory, shuffle partitions, dynamic-allocation bounds), its predicted runtime, 80 % interval and cost, the
 * predictor used and the {@code spark-submit} arguments; writes {@code recommendations} under {@code --output},
 * replaced whole. With {@code --check}, instead hides measured configurations and checks the recommendations against
 * the measurements ({@link RecommendCheck}), printing the report and writing nothing. Usage:
 *
 * <pre>
 * submit/perflab recommend --input ROOT [--output ROOT] [--runs FILE.csv] [--deadline S] [--max-executors N]
 *     [--price-core-hour P --price-gb-hour P --currency C | --cluster-profile FILE.json] [--check]
 * </pre>
 *
 * <p>Options: docs/jobs.md#recommend; the table: docs/tables.md#recommendations; the method: docs/recommend.md.
 */
@Command(
    name = "recommend",
    mixinStandardHelpOptions = true,
    description = "Recommend executors, cores, memory and shuffle partitions per workload and input size, with the "
        + "predicted runtime and cost; write recommendations.")
public final class RecommendJob implements SessionCommand {
  private static final Logger LOG = LoggerFactory.getLogger(RecommendJob.class);
  static final String JOB = "recommend";

  /**
   * The options of {@code recommend}, validated.
   *
   * @param input root of the tables read
   * @param output root of {@code recommendations}
   * @param runs a runtime table to read runs from instead of {@code workloads}
   * @param objective the objective and its bounds
   * @param prices the prices, or core-hours
   * @param check whether to check against the measurements instead of writing
   */
  public record Options(String input, String output, Optional<String> runs, Objective objective, Prices prices,
      boolean check) {}

  /** What a run did: the rows written, those with a reason, and the check's report when {@code --check}. */
  public record Summary(long rows, long withoutRecommendation, RunTable.Runs runs,
      Optional<RecommendCheck.Report> check) {}

  @Option(names = "--input", required = true, paramLabel = "ROOT",
      description = "Output root of ingest and features (workloads, app_features), and of evaluate, sweep, memory, "
          + "diagnose and scaling when they ran (predictor_choice, sweep_results, memory_recommendations, findings, "
          + "scaling_fits: each used when present).")
  String input;

  @Option(names = "--output", paramLabel = "ROOT", description = "Where recommendations goes. Default: --input.")
  String output;

  @Option(names = "--runs", paramLabel = "FILE.csv", description = "Read runs from a runtime table instead of "
      + "workloads (columns as evaluate --runs).")
  String runs;

  @Option(names = "--deadline", paramLabel = "S", description = "Recommend the cheapest configuration whose p90 "
      + "predicted runtime (the 80 %% interval's upper end) is at most S seconds (> 0). Default: the cheapest within "
      + "10 %% of the fastest predicted.")
  Double deadline;

  @Option(names = "--max-executors", paramLabel = "N", description = "Consider at most N executors (>= 1). "
      + "Overrides the cluster profile's max_executors.")
  Integer maxExecutors;

  @Option(names = "--price-core-hour", paramLabel = "P", description = "Price of a core-hour (>= 0), in --currency.")
  Double priceCoreHour;

  @Option(names = "--price-gb-hour", paramLabel = "P", description = "Price of a GiB-hour of executor memory plus "
      + "overhead (>= 0), in --currency.")
  Double priceGbHour;

  @Option(names = "--currency", paramLabel = "C", description = "The prices' currency; required with a price. "
      + "Without prices, cost is core-hours.")
  String currency;

  @Option(names = "--cluster-profile", paramLabel = "FILE.json", description = "JSON with any of price_core_hour, "
      + "price_gb_hour, currency, max_executors; options given override it.")
  String clusterProfile;

  @Option(names = "--check", description = "Check recommendations against measured runs with some configurations "
      + "hidden, print the report, and write nothing.")
  boolean check;

  @Override
  public String appName() {
    return "perflab recommend";
  }

  @Override
  public Work prepare() {
    ClusterProfile profile = clusterProfile == null ? ClusterProfile.none()
        : ClusterProfile.parse(readProfile(clusterProfile), clusterProfile);
    Options options = new Options(input, output == null ? input : output, Optional.ofNullable(runs),
        Objective.of(Optional.ofNullable(deadline),
            Optional.ofNullable(ClusterProfile.merge(maxExecutors, profile.maxExecutors()))),
        Prices.of(ClusterProfile.merge(priceCoreHour, profile.perCoreHour()),
            ClusterProfile.merge(priceGbHour, profile.perGbHour()), ClusterProfile.merge(currency,
                profile.currency())), check);
    Preflight preflight = Preflight.of(JOB);
    if (options.runs().isPresent()) {
      preflight.matches("--runs", options.runs().get());
    } else {
      preflight.ingestTables("--input", options.input(), FeatureInputs.TABLES);
    }
    if (!options.check()) {
      preflight.outputRoot("--output", options.output());
    }
    return spark -> {
      LOG.info("Recommending configurations from {} into {}", options.runs().orElse(options.input()),
          options.output());
      Summary summary = run(spark, options);
      JobOutcome outcome = JobOutcome.printed(describe(summary) + (options.check() ? ""
          : "\n" + RunSummary.tables(spark, options.output(), RecommendTables.NAMES)));
      return outcome;
    };
  }

  /** Reads the tables, recommends (or checks), and writes {@code recommendations} unless checking. */
  public static Summary run(SparkSession spark, Options options) {
    TableStore in = new TableStore(spark, options.input());
    Optional<Dataset<Row>> workloads = options.runs().isPresent() ? Optional.empty() : Optional.of(
        in.read(FeatureTables.WORKLOADS_TABLE).orElseGet(() -> WorkloadTable.of(FeatureInputs.read(in, JOB),
            Optional.empty())));
    RunTable.Runs runs = workloads.map(RunTable::fromWorkloads)
        .orElseGet(() -> RunTable.fromCsv(spark, options.runs().orElseThrow()));
    spark.sparkContext().setJobDescription("Recommend configurations");
    if (options.check()) {
      List<Run> all = runs.rows().collectAsList().stream().map(Recommendations::run).toList();
      return new Summary(0, 0, runs, Optional.of(RecommendCheck.check(all)));
    }
    Dataset<Row> rows = Recommendations.of(spark, RecommendInputs.read(in, workloads, runs.rows()), options.objective(),
        options.prices()).cache();
    try {
      new TableStore(spark, options.output()).overwrite(RecommendTables.RECOMMENDATIONS_TABLE, rows.coalesce(1));
      return new Summary(rows.count(), rows.where(col("reason").isNotNull()).count(), runs, Optional.empty());
    } finally {
      rows.unpersist();
    }
  }

  private static String readProfile(String file) {
    Path path = new Path(file);
    try (FSDataInputStream stream = path.getFileSystem(DeltaSessions.hadoopConfiguration()).open(path)) {
      return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new BadInputException("Cannot read the cluster profile: " + e.getMessage() + " (" + file + ")", e);
    }
  }

  static String describe(Summary s) {
    List<String> lines = new ArrayList<>();
    if (s.check().isPresent()) {
      lines.add("recommend --check:");
      s.check().get().lines().forEach(l -> lines.add("  " + l));
    } else {
      lines.add(String.format(Locale.ROOT, "recommend: %d rows, %d without a recommendation (see reason)", s.rows(),
          s.withoutRecommendation()));
    }
    RunTable.describeSkipped(s.runs().skipped()).forEach(l -> lines.add("  " + l));
    return String.join("\n", lines);
  }
}
