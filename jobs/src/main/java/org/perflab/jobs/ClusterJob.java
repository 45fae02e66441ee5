package org.perflab.jobs;

import org.perflab.jobs.cli.Preflight;
import org.perflab.jobs.cli.RunSummary;
import org.perflab.jobs.cli.SessionCommand;
import org.perflab.jobs.cli.JobOutcome;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.perflab.spark.clustering.ClusterOptions;
import org.perflab.spark.clustering.ClusterTables;
import org.perflab.spark.clustering.Clustering;
import org.perflab.spark.clustering.Clustering.Clustered;
import org.perflab.spark.clustering.Clustering.NotClustered;
import org.perflab.spark.clustering.Clustering.Outcome;
import org.perflab.spark.clustering.Clustering.PreviousCentre;
import org.perflab.errors.BadInputException;
import org.perflab.spark.storage.ModelDirectory;
import org.perflab.spark.storage.TableStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code perflab cluster}: groups applications with MLlib KMeans over their {@code app_features} (written by
 * {@code perflab features}), choosing k by silhouette, and writes {@code app_clusters}, {@code cluster_centers},
 * {@code cluster_summary} and {@code cluster_selection} under {@code --output}, and the fitted pipeline under
 * {@code <output>/_perflab_models/cluster/}. Every application is clustered on every run (not incremental); cluster
 * ids carry over from the previous run's {@code cluster_centers}. Usage:
 *
 * <pre>
 * submit/perflab cluster --input ROOT [--output ROOT] [--k-min 2] [--k-max 10] [--seed 1]
 * </pre>
 *
 * <p>Fewer than 3 applications (or too few distinct ones for {@code --k-min}) write nothing and exit 0. Options:
 * docs/jobs.md.
 */
@Command(
    name = "cluster",
    mixinStandardHelpOptions = true,
    description = "Cluster applications by their features (MLlib KMeans, k by silhouette); ids stable across runs.")
public final class ClusterJob implements SessionCommand {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterJob.class);
  /** The name of the saved model under {@code <output>/_perflab_models/}. */
  static final String MODEL = "cluster";

  /** The options of {@code cluster}. */
  public record Options(String input, String output, ClusterOptions clustering) {}

  @Option(names = "--input", required = true, paramLabel = "ROOT",
      description = "Output root of features: reads ROOT/app_features, and ROOT/findings when it exists.")
  String input;

  @Option(names = "--output", paramLabel = "ROOT",
      description = "Output root of the cluster tables and model. Default: --input.")
  String output;

  @Option(names = "--k-min", defaultValue = "" + ClusterOptions.DEFAULT_K_MIN, paramLabel = "N",
      description = "Smallest k tried (>= 2). Default: ${DEFAULT-VALUE}.")
  int kMin;

  @Option(names = "--k-max", defaultValue = "" + ClusterOptions.DEFAULT_K_MAX, paramLabel = "N",
      description = "Largest k tried (>= --k-min; capped at the distinct applications - 1). Default: ${DEFAULT-VALUE}.")
  int kMax;

  @Option(names = "--seed", defaultValue = "1", paramLabel = "N", description = "KMeans seed. Default: ${DEFAULT-VALUE}.")
  long seed;

  @Override
  public String appName() {
    return "perflab cluster";
  }

  @Override
  public Work prepare() {
    Options options = new Options(input, output == null ? input : output, new ClusterOptions(kMin, kMax, seed));
    Preflight.of("cluster").jobTable("--input", options.input(), ClusterTables.APP_FEATURES, "features")
        .outputRoot("--output", options.output());
    return spark -> {
      LOG.info("Clustering the applications under {} into {}", options.input(), options.output());
      JobOutcome outcome = JobOutcome.printed(summary(spark, options, run(spark, options)));
      return outcome;
    };
  }

  /** Clusters every application under {@code --input}, writes the tables and the model, and returns the outcome. */
  static Outcome run(SparkSession spark, Options options) {
    TableStore in = new TableStore(spark, options.input());
    TableStore out = new TableStore(spark, options.output());
    Dataset<Row> features = in.read(ClusterTables.APP_FEATURES).orElseThrow(() -> new BadInputException(
        String.format("Cannot cluster: no app_features under %s (run perflab features first)", options.input())));
    // Read before anything is overwritten: the new clusters keep the ids of the centres they match.
    List<PreviousCentre> previous = out.read(ClusterTables.CENTERS_TABLE).map(PreviousCentre::of).orElse(List.of());
    spark.sparkContext().setJobDescription("Cluster the applications of " + options.input());
    Outcome outcome = Clustering.cluster(features, previous, in.read(ClusterTables.FINDINGS),
        options.clustering());
    if (outcome instanceof Clustered clustered) {
      write(spark, out, clustered);
    }
    return outcome;
  }

  private static void write(SparkSession spark, TableStore out, Clustered clustered) {
    out.overwrite(ClusterTables.APP_CLUSTERS_TABLE, clustered.appClusters());
    out.overwrite(ClusterTables.CENTERS_TABLE, clustered.centers().coalesce(1));
    out.overwrite(ClusterTables.SUMMARY_TABLE, clustered.summary().coalesce(1));
    out.overwrite(ClusterTables.SELECTION_TABLE, clustered.selectionRows().coalesce(1));
    new ModelDirectory(out).replace(MODEL, clustered.model(), spark.sparkContext().applicationId());
  }

  private static String summary(SparkSession spark, Options options, Outcome outcome) {
    if (outcome instanceof NotClustered not) {
      return String.format("cluster: %d applications, not clustered: %s; no table written (earlier cluster tables "
          + "under %s are left as they were)", not.applications(), not.reason(), options.output());
    }
    Clustered clustered = (Clustered) outcome;
    String silhouettes = clustered.selection().scores().stream()
        .map(s -> String.format(Locale.ROOT, "k=%d %.3f", s.k(), s.silhouette())).collect(Collectors.joining(", "));
    return String.format("cluster: %d applications (all of them: clustering is not incremental) in %d clusters; "
            + "silhouette %s%s%n%s%n  model: %s", clustered.applications(), clustered.selection().chosenK(),
        silhouettes, clustered.findingsSummarised() ? ""
            : "; no findings table, so cluster_summary.dominant_findings is null (run perflab diagnose)",
        RunSummary.tables(spark, options.output(), ClusterTables.NAMES),
        new ModelDirectory(new TableStore(spark, options.output())).path(MODEL));
  }
}
