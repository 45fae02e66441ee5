package org.perflab.spark.sweep;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.spark.sql.SparkSession;
import org.perflab.costmodel.PhaseCostInputs;
import org.perflab.costmodel.PhaseCostRule;
import org.perflab.errors.BadInputException;
import org.perflab.sim.Model;
import org.perflab.spark.costmodel.PhaseCostSource;
import org.perflab.sweep.BestPoint;
import org.perflab.sweep.Grid;
import org.perflab.sweep.PointResult;
import org.perflab.sweep.ScalingRule;
import org.perflab.sweep.Sweep;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a sweep is planned and run, once {@code perflab sweep} has read its model file or its grid file: the rule applied
 * to every grid point of a model ({@link #plan}), the trials run on Spark and both tables written ({@link #run}), and
 * the {@code --per-workload} loop over the latest run of each workload ({@link #runPerWorkload}). What is read from
 * {@code dag_models} comes from {@link SweptModels}; what is written goes through {@link SweepOutput}.
 */
public final class SweepRun {
  private static final Logger LOG = LoggerFactory.getLogger(SweepRun.class);

  private SweepRun() {}

  /** What a sweep did, for logs and tests. */
  public record Summary(int points, int trials, long applications, long tasks, List<PointResult> results,
      List<BestPoint> best) {}

  /**
   * What a {@code --per-workload} sweep did.
   *
   * @param swept runs swept
   * @param skipped runs that could not be swept (bad input: no model, no stage costs, a setting the codec table did not
   *     measure), by app id, with the reason
   * @param points grid points simulated, over the swept runs
   * @param trials trials simulated
   */
  public record PerWorkload(int swept, Map<String, String> skipped, int points, long trials) {
    /** One indented "skipped APP: REASON" line per skipped run, each after a line break; empty when none. */
    public String skippedLines() {
      StringBuilder out = new StringBuilder();
      skipped.forEach((app, reason) -> out.append(String.format("%n  skipped %s: %s", app, reason)));
      return out.toString();
    }
  }

  /** Applies {@code rule} to every point of {@code grid} over {@code base}: all bad input surfaces here. */
  public static Sweep plan(SweepOptions options, Model base, ScalingRule rule, Grid grid) {
    int appsPerTrial = options.apps() != null ? options.apps() : base.maxJobs();
    long baseSeed = options.seed() != null ? options.seed() : base.seed();
    return Sweep.plan(base, grid, rule, options.taskCpus(), baseSeed, appsPerTrial, options.targetCi());
  }

  /**
   * The sweep of a model read from {@code dag_models} ({@code dagModel}; its input size for {@code input-size}); with
   * {@code --rule phase-cost}, the rule is built from the run's properties and {@code stage_costs} under
   * {@code options.costs()}, and what it covers is logged and said through {@code say}.
   */
  public static Sweep plan(SparkSession spark, SweepOptions options, Grid grid, SweptModels.DagModel dagModel,
      Consumer<String> say) {
    if (!PhaseCostRule.NAME.equals(options.rule())) {
      return plan(options, dagModel.model(), ScalingRule.named(options.rule(), dagModel.inputBytes()), grid);
    }
    PhaseCostInputs.Built built = PhaseCostSource.build(spark, options.costs(), dagModel.model(),
        dagModel.swept().logId(), options.appId());
    say.accept("sweep " + options.appId() + ": " + built.describe() + "\n");
    return plan(options, dagModel.model(), built.rule(), grid);
  }

  /**
   * Runs the trials on Spark and writes both tables, replacing {@code swept}'s rows, and returns what was done.
   */
  public static Summary run(SparkSession spark, Sweep sweep, SweepOptions options, SweepTables.Swept swept) {
    SweepOutput out = new SweepOutput(spark, options.output());
    SweepOutput.Result result = simulate(spark, sweep, options, swept);
    out.writeAll(List.of(result));
    List<PointResult> results = result.results();
    long apps = results.stream().mapToLong(PointResult::applications).sum();
    long tasks = results.stream().mapToLong(PointResult::tasks).sum();
    return new Summary(results.size(), sweep.trials().size(), apps, tasks, results, result.best());
  }

  /**
   * Sweeps each of {@code apps} with its options, one after the other, and then replaces each swept log's rows under
   * the rule, all of them in one commit per table and output root. The applications' models are read from
   * {@code dag_models} in one query. A run that is bad input is skipped, logged and counted with its reason (its old
   * rows stay); the others are still swept.
   *
   * @param grid the grid every run is swept over
   * @param say where what a phase-cost rule covers is said (the console)
   */
  public static PerWorkload runPerWorkload(SparkSession spark, List<String> apps,
      Function<String, SweepOptions> optionsOf, Grid grid, Consumer<String> say) {
    int swept = 0;
    int points = 0;
    long trials = 0;
    Map<String, String> skipped = new LinkedHashMap<>();
    Map<String, List<SweepOutput.Result>> byOutput = new LinkedHashMap<>();
    Map<String, SweptModels.Models> modelsByTable = new HashMap<>();
    for (String app : apps) {
      SweepOptions options = optionsOf.apply(app);
      try {
        SweptModels.DagModel dagModel = modelsByTable.computeIfAbsent(options.dagModels(),
            dir -> SweptModels.models(spark, dir, apps)).model(app);
        Sweep sweep = plan(spark, options, grid, dagModel, say);
        SweepOutput.Result result = simulate(spark, sweep, options, dagModel.swept());
        byOutput.computeIfAbsent(options.output(), root -> new ArrayList<>()).add(result);
        swept++;
        points += result.results().size();
        trials += sweep.trials().size();
      } catch (BadInputException e) {
        LOG.warn("Cannot sweep {}: {}", app, e.getMessage());
        skipped.put(app, e.getMessage());
      }
    }
    byOutput.forEach((root, results) -> new SweepOutput(spark, root).writeAll(results));
    return new PerWorkload(swept, skipped, points, trials);
  }

  /** Runs the trials on Spark and picks the best points: what {@code swept}'s sweep writes. */
  private static SweepOutput.Result simulate(SparkSession spark, Sweep sweep, SweepOptions options,
      SweepTables.Swept swept) {
    List<PointResult> results = SweepTrials.run(spark, sweep, options.partitionsPerPoint());
    List<BestPoint> best = Sweep.best(results, options.deadlineStat(), options.deadlineS());
    if (options.deadlineS() != null && best.stream().noneMatch(b -> b.kind() == BestPoint.Kind.DEADLINE)) {
      LOG.warn("No grid point meets the deadline of {} s by {}", options.deadlineS(), options.deadlineStat());
    }
    return new SweepOutput.Result(swept, sweep.rule().name(), results, best);
  }
}
