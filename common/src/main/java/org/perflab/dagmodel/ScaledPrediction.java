package org.perflab.dagmodel;

import java.io.Serializable;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.perflab.errors.BadInputException;
import org.perflab.queueing.ForkJoinBound;
import org.perflab.queueing.TaskPrecedenceAmva;
import org.perflab.sim.Distribution;
import org.perflab.sim.Engine;
import org.perflab.sim.Model;
import org.perflab.sim.Percentiles;
import org.perflab.sim.Stage;

/**
 * A prediction of an application's execution time at another slot count and input size, from the model of one of
 * its runs: the model scaled to the target input by {@link DataScaling}, on the target's slots, simulated, beside the
 * fork-join bound and the task-precedence AMVA of the same scaled model. Times are in seconds (models built from
 * event logs are in seconds).
 *
 * @param ratio target input bytes ÷ source input bytes (1 when they are equal)
 * @param slots task slots of the prediction
 * @param tasks tasks of one application of the scaled model
 * @param simulatedS mean execution time over the simulated applications
 * @param simulatedLowS lower end of the 80 % interval: the 10th percentile of the simulated execution times (see
 *     {@link #predict}), at most {@code simulatedS}
 * @param simulatedHighS upper end: the 90th percentile, at least {@code simulatedS}
 * @param forkJoinS the fork-join bound {@code Σ H_K · R_core} on {@code slots} cores
 * @param taskPrecedenceS the task-precedence AMVA response time on {@code slots} slots
 */
public record ScaledPrediction(double ratio, int slots, long tasks, double simulatedS, double simulatedLowS,
    double simulatedHighS, double forkJoinS, double taskPrecedenceS) implements Serializable {

  /**
   * Predicts the execution time of a run at {@code targetSlots} slots on {@code targetInputBytes} bytes of input from
   * the model of a run on {@code sourceInputBytes} bytes. The simulator runs {@code apps} independent applications,
   * one per seed drawn from {@code seed} (the first with {@code seed} itself), so that no application queues behind
   * another; the mean is over them. A replayed model repeats one schedule, so its quantiles would all equal the
   * mean: its interval is taken from the same model with each replayed stage drawing uniformly from its samples
   * (empirical). The interval is widened to contain the mean. Deterministic in its arguments.
   *
   * @param source the model of the source run, as {@code dag_models.model_json} holds it (seconds)
   * @param sourceInputBytes the source run's input size in bytes ({@code dag_models.input_bytes})
   * @param targetInputBytes the input size to predict, in bytes; equal to the source's, the model is not scaled
   *     (then neither needs to be positive)
   * @throws BadInputException when the sizes differ and one is not positive, the model records no input bytes,
   *     or {@code targetSlots} or {@code apps} is below 1
   */
  public static ScaledPrediction predict(Model source, long sourceInputBytes, int targetSlots, long targetInputBytes,
      int apps, long seed) {
    Model scaled = scaled(source, sourceInputBytes, targetSlots, targetInputBytes, apps);
    double ratio = ratio(sourceInputBytes, targetInputBytes);
    double[] times = simulate(scaled, apps, seed);
    double mean = Arrays.stream(times).average().orElseThrow();
    double[] spread = isReplayed(scaled) ? simulate(empirical(scaled), apps, seed) : times;
    Arrays.sort(spread);
    double low = Math.min(mean, Percentiles.ofSorted(spread, 0.10));
    double high = Math.max(mean, Percentiles.ofSorted(spread, 0.90));
    double forkJoin = ForkJoinBound.predict(scaled, targetSlots).upperBound();
    double amva = TaskPrecedenceAmva.solve(scaled, targetSlots, CrossSlotPredictor.AMVA_EPSILON_S,
        CrossSlotPredictor.AMVA_MAX_ITERATIONS).responseTime();
    return new ScaledPrediction(ratio, targetSlots, scaled.tasksPerApplication(), mean, low, high, forkJoin, amva);
  }

  /**
   * The mean simulated execution time alone of {@link #predict} (no interval, no bounds): {@code source} scaled to
   * {@code targetInputBytes} and simulated on {@code targetSlots} slots, seconds. Same arguments and errors.
   */
  public static double simulatedMean(Model source, long sourceInputBytes, int targetSlots, long targetInputBytes,
      int apps, long seed) {
    Model scaled = scaled(source, sourceInputBytes, targetSlots, targetInputBytes, apps);
    return Arrays.stream(simulate(scaled, apps, seed)).average().orElseThrow();
  }

  /** Target input bytes ÷ source input bytes: 1 when they are equal (then neither needs to be positive). */
  private static double ratio(long sourceInputBytes, long targetInputBytes) {
    return sourceInputBytes == targetInputBytes ? 1.0 : DataScaling.ratio(sourceInputBytes, targetInputBytes);
  }

  /**
   * {@code source} scaled to {@code targetInputBytes} on {@code targetSlots} slots, one application; checks the slots
   * and the applications before the sizes.
   */
  private static Model scaled(Model source, long sourceInputBytes, int targetSlots, long targetInputBytes,
      int apps) {
    BadInputException.require(targetSlots >= 1, "Cannot predict: the target must have >= 1 task slot (%d)",
        targetSlots);
    BadInputException.require(apps >= 1, "Cannot predict: simulate at least 1 application (%d)", apps);
    return DataScaling.scale(source, ratio(sourceInputBytes, targetInputBytes)).withNodes(targetSlots)
        .withMaxJobs(1);
  }

  /** Execution times of {@code apps} one-application runs, the first with {@code seed}, then seeds drawn from it. */
  private static double[] simulate(Model model, int apps, long seed) {
    Engine engine = new Engine(model);
    SplittableRandom seeds = new SplittableRandom(seed);
    double[] times = new double[apps];
    long next = seed;
    for (int i = 0; i < apps; i++) {
      times[i] = engine.run(next).execution().mean();
      next = seeds.nextLong();
    }
    return times;
  }

  private static boolean isReplayed(Model model) {
    return model.stages().stream().anyMatch(s -> s.distribution() instanceof Distribution.Replay);
  }

  /** The model with each replayed stage drawing uniformly from its samples. */
  private static Model empirical(Model model) {
    return new Model(model.stages().stream().map(ScaledPrediction::empirical).toList(), model.nodes(), model.users(),
        model.thinkTime(), model.maxJobs(), model.confIntCoeff(), model.seed(), model.taskChoice());
  }

  private static Stage empirical(Stage s) {
    return s.distribution() instanceof Distribution.Replay r ? s.withDistribution(
        new Distribution.Empirical(r.samples())) : s;
  }
}
