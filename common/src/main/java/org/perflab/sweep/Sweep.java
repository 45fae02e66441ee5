package org.perflab.sweep;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.perflab.sim.Engine;
import org.perflab.sim.Measure;
import org.perflab.sim.Model;
import org.perflab.sim.Percentiles;
import org.perflab.sim.Result;

/**
 * A Monte Carlo sweep of a model over a grid, independent of where trials run: {@link #trials()} lists them,
 * {@link #runTrial} runs one anywhere, and {@link #summarize} reduces a point's outcomes in replication order, so the
 * results are the same for any partitioning. The Spark job only fans trials out; {@link #runSequentially} is the
 * same sweep on one thread.
 *
 * <p>Each trial simulates up to {@code appsPerTrial} applications; with {@code targetCi} &gt; 0 a trial stops once its
 * relative CI half-width is at most {@code targetCi·√replications}, so that the pooled point reaches about
 * {@code targetCi}. Model time units are taken as seconds.
 *
 * @param plans the model of each grid point, in {@link Grid#points()} order, checked before any trial runs
 */
public record Sweep(Grid grid, ScalingRule rule, int taskCpus, List<Model> plans, long baseSeed, int appsPerTrial,
    double targetCi) implements Serializable {

  /** Plans a sweep: applies the rule to every point now, so a bad grid or model fails before any trial. */
  public static Sweep plan(Model base, Grid grid, ScalingRule rule, int taskCpus, long baseSeed, int appsPerTrial,
      double targetCi) {
    org.perflab.errors.BadInputException.require(taskCpus >= 1, "Cannot plan sweep: --task-cpus must be >= 1 (%d)",
        taskCpus);
    org.perflab.errors.BadInputException.require(appsPerTrial >= 1,
        "Cannot plan sweep: applications per trial must be >= 1 (%d)", appsPerTrial);
    org.perflab.errors.BadInputException.require(targetCi >= 0 && targetCi < 1,
        "Cannot plan sweep: --target-ci must be in [0, 1) (%s)", targetCi);
    org.perflab.errors.BadInputException.require(!grid.hasInputSizes() || rule.scalesInput(),
        "Cannot plan sweep: the grid has input sizes, which rule %s ignores (use --rule input-size)", rule.name());
    org.perflab.errors.BadInputException.require(!grid.hasShuffleSettings() || rule.modelsShuffleSettings(),
        "Cannot plan sweep: the grid has codecs or serializers, which rule %s ignores (use --rule phase-cost)",
        rule.name());
    List<Model> plans = new ArrayList<>();
    for (GridPoint p : grid.points()) {
      plans.add(rule.apply(base, p, taskCpus).withMaxJobs(appsPerTrial));
    }
    return new Sweep(grid, rule, taskCpus, plans, baseSeed, appsPerTrial, targetCi);
  }

  public Sweep {
    plans = List.copyOf(plans);
  }

  /** Every trial: each point, each replication, point-major. */
  public List<Trial> trials() {
    List<GridPoint> points = grid.points();
    List<Trial> trials = new ArrayList<>();
    for (int i = 0; i < points.size(); i++) {
      for (int r = 0; r < grid.replications(); r++) {
        trials.add(new Trial(i, points.get(i), r, Seeds.trialSeed(baseSeed, points.get(i), r)));
      }
    }
    return trials;
  }

  /** Runs one trial; a pure function of the sweep and the trial. */
  public TrialOutcome runTrial(Trial trial) {
    double trialTarget = targetCi * Math.sqrt(grid.replications());
    Result r = new Engine(plans.get(trial.pointIndex())).run(trial.seed(), trialTarget);
    double sum = 0;
    double sumOfSquares = 0;
    for (double x : r.executionTimes()) {
      sum += x;
      sumOfSquares += x * x;
    }
    return new TrialOutcome(trial.pointIndex(), trial.replication(), trial.seed(), r.applications(), r.tasks(), sum,
        sumOfSquares, r.executionTimes());
  }

  /** Pools the outcomes of one point (in any order) into its result row, in replication order. */
  public PointResult summarize(List<TrialOutcome> outcomes) {
    List<TrialOutcome> sorted = new ArrayList<>(outcomes);
    sorted.sort(Comparator.comparingInt(TrialOutcome::replication));
    int pointIndex = sorted.get(0).pointIndex();
    double sum = 0;
    double sumOfSquares = 0;
    long apps = 0;
    long tasks = 0;
    for (TrialOutcome o : sorted) {
      sum += o.sum();
      sumOfSquares += o.sumOfSquares();
      apps += o.applications();
      tasks += o.tasks();
    }
    double[] all = new double[(int) apps];
    int k = 0;
    for (TrialOutcome o : sorted) {
      System.arraycopy(o.executionTimes(), 0, all, k, o.executionTimes().length);
      k += o.executionTimes().length;
    }
    Arrays.sort(all);
    Model model = plans.get(pointIndex);
    Measure m = Measure.of(sum, sumOfSquares, apps, model.confIntCoeff());
    GridPoint point = grid.points().get(pointIndex);
    return new PointResult(point, grid.hasMemory(), taskCpus, model.nodes(), rule.name(), sorted.size(), apps, tasks,
        m.mean(), m.std(), m.ciLow(), m.ciHigh(), Percentiles.ofSorted(all, 0.50), Percentiles.ofSorted(all, 0.90),
        Percentiles.ofSorted(all, 0.99), point.coreHours(m.mean()),
        grid.hasMemory() ? point.gbHours(m.mean()) : Double.NaN, baseSeed,
        sorted.stream().map(TrialOutcome::seed).toList());
  }

  /** The whole sweep on this thread, in grid order. */
  public List<PointResult> runSequentially() {
    List<List<TrialOutcome>> byPoint = new ArrayList<>();
    for (int i = 0; i < plans.size(); i++) {
      byPoint.add(new ArrayList<>());
    }
    for (Trial t : trials()) {
      byPoint.get(t.pointIndex()).add(runTrial(t));
    }
    return byPoint.stream().map(this::summarize).toList();
  }

  /**
   * The time–cost Pareto front (cost = core·hours, time = {@code statistic}): points that no other point beats on
   * both, cheapest first. Ties keep the earlier grid point.
   */
  public static List<PointResult> paretoFront(List<PointResult> results, Statistic statistic) {
    List<PointResult> sorted = new ArrayList<>(results);
    sorted.sort(Comparator.comparingDouble(PointResult::coreHours).thenComparingDouble(statistic::of));
    List<PointResult> front = new ArrayList<>();
    double bestTime = Double.POSITIVE_INFINITY;
    for (PointResult r : sorted) {
      if (statistic.of(r) < bestTime) {
        front.add(r);
        bestTime = statistic.of(r);
      }
    }
    return front;
  }

  /** The cheapest point (core·hours, then time) whose {@code statistic} is at most {@code deadlineS} seconds. */
  public static Optional<PointResult> cheapestMeeting(List<PointResult> results, double deadlineS,
      Statistic statistic) {
    return results.stream()
        .filter(r -> statistic.of(r) <= deadlineS)
        .min(Comparator.comparingDouble(PointResult::coreHours).thenComparingDouble(statistic::of));
  }

  /**
   * The rows of {@code sweep_best}: the front, then the deadline point when a deadline is given and met; per input
   * size, in grid order, when the grid has input sizes (configurations on different inputs do not compete).
   */
  public static List<BestPoint> best(List<PointResult> results, Statistic statistic, Double deadlineS) {
    Map<Long, List<PointResult>> bySize = new LinkedHashMap<>();
    results.forEach(r -> bySize.computeIfAbsent(r.point().inputBytes(), k -> new ArrayList<>()).add(r));
    List<BestPoint> best = new ArrayList<>();
    for (List<PointResult> sameInput : bySize.values()) {
      for (PointResult r : paretoFront(sameInput, statistic)) {
        best.add(new BestPoint(BestPoint.Kind.PARETO, statistic, Double.NaN, r));
      }
      if (deadlineS != null) {
        cheapestMeeting(sameInput, deadlineS, statistic)
            .ifPresent(r -> best.add(new BestPoint(BestPoint.Kind.DEADLINE, statistic, deadlineS, r)));
      }
    }
    return best;
  }
}
