package org.perflab.stragglers;

import java.util.EnumSet;
import java.util.Set;

/**
 * The BigRoots root-cause rules (reference 002 §2.1.3 as resolved in §5.2 A3), pure functions of a straggler's
 * evidence. A feature names its {@link Feature#cause()} when every rule of its {@link Category} holds:
 *
 * <ul>
 *   <li>numeric (Eq. 3.3, with λp as the peer multiplier and λq as the quantile level, as Table 4 names them):
 *       {@code F > quantile_λq(F over the application)} and {@code F > λp · mean(F over the stage's other tasks)};
 *   <li>time: numeric and {@code F > λT} (F is already a share of the task's duration);
 *   <li>resource: numeric and {@link EdgeDetection#external}, the corrected edge detection;
 *   <li>locality (Eq. 3.5): code 2 and {@code Σ code(normal tasks) < n_normal / 2}.
 * </ul>
 *
 * <p>CPU additionally needs "like data": no data-skew feature exceeds λp × its peer mean, so a task slow because it
 * had more data is DATA_SKEW, not CPU.
 *
 * <p>Beyond the thesis's features, {@link Cause#SLOW_HOST} ({@link #slowHost}) names the machine when the straggler's
 * host ran the application's other tasks slow too, on like data: the heterogeneous hardware the reference lists among
 * the causes and Mantri blames last, which the event log shows through the {@code host} of every task; and {@link
 * Cause#COLD_EXECUTOR} ({@link #coldExecutor}) names the executor's warm-up when the straggler was among its executor's
 * first tasks and the stage's other first tasks ran slow too against those on executors already warm.
 */
public final class BigRoots {
  private BigRoots() {}

  /** Eq. 3.3: above the application's λq-quantile and above λp times the peers' mean. */
  public static boolean numeric(FeatureEvidence e, double lambdaP) {
    return e.value() > e.appQuantile() && abovePeers(e, lambdaP);
  }

  /** The time rule: numeric, and the share of the task's duration exceeds λT. */
  public static boolean time(FeatureEvidence e, double lambdaP, double lambdaT) {
    return numeric(e, lambdaP) && e.value() > lambdaT;
  }

  /** The resource rule: numeric, and the load is external by the corrected edge detection. */
  public static boolean resource(FeatureEvidence e, double lambdaP, double lambdaE) {
    return numeric(e, lambdaP) && EdgeDetection.external(e.headMean(), e.value(), e.tailMean(), lambdaE);
  }

  /** Eq. 3.5: the straggler ran non-locally (code 2) while its stage's normal tasks mostly ran locally. */
  public static boolean locality(LocalityEvidence e) {
    return e.code() == 2 && e.normalCodeSum() < e.normalTasks() / 2.0;
  }

  /** The straggler's causes, in the vocabulary's order; empty when unexplained. */
  public static Set<Cause> causes(TaskEvidence evidence, StragglerThresholds thresholds) {
    Set<Cause> causes = EnumSet.noneOf(Cause.class);
    for (Feature feature : Feature.values()) {
      if (holds(feature, evidence, thresholds)) {
        causes.add(feature.cause());
      }
    }
    boolean likeData = likeData(evidence, thresholds.lambdaP());
    if (!likeData) {
      causes.remove(Cause.CPU);
    }
    if (likeData && slowHost(evidence.host(), thresholds.stragglerFactor())) {
      causes.add(Cause.SLOW_HOST);
    }
    if (likeData && coldExecutor(evidence.cold(), thresholds.stragglerFactor())) {
      causes.add(Cause.COLD_EXECUTOR);
    }
    return causes;
  }

  /** Whether one feature's rule holds for this straggler. */
  public static boolean holds(Feature feature, TaskEvidence evidence, StragglerThresholds t) {
    FeatureEvidence e = evidence.feature(feature);
    return switch (feature.category()) {
      case NUMERIC -> numeric(e, t.lambdaP());
      case TIME -> time(e, t.lambdaP(), t.lambdaT());
      case RESOURCE -> resource(e, t.lambdaP(), t.lambdaE());
      case LOCALITY -> locality(evidence.locality());
    };
  }

  /**
   * The host rule: at least {@link #HOST_MIN_OTHER_TASKS} other tasks of the application ran on the straggler's host,
   * and their durations over their stages' medians average, geometrically, above the straggler factor: a typical task
   * of that host is itself a straggler by the same definition.
   */
  public static boolean slowHost(HostEvidence e, double stragglerFactor) {
    return e.otherTasks() >= HOST_MIN_OTHER_TASKS && e.otherSlowness() > stragglerFactor;
  }

  /** Other tasks a host needs before it is judged slow: one more task than the straggler itself, so never one alone. */
  public static final int HOST_MIN_OTHER_TASKS = 2;

  /**
   * The cold-executor rule: the straggler was among its executor's first tasks, at least {@link #HOST_MIN_OTHER_TASKS}
   * other first tasks and as many warm tasks ran in its stage, and the other first tasks' durations over the warm
   * tasks' median average, geometrically, above the straggler factor: a typical first task of that stage is itself a
   * straggler against the warm ones, so the warm-up, not this task, is what was slow.
   */
  public static boolean coldExecutor(ColdEvidence e, double stragglerFactor) {
    return e.cold() && e.warmTasks() >= HOST_MIN_OTHER_TASKS && e.otherColdTasks() >= HOST_MIN_OTHER_TASKS
        && e.otherColdSlowness() > stragglerFactor;
  }

  /** "On like data": no data-skew feature is above λp times its peers' mean. */
  static boolean likeData(TaskEvidence evidence, double lambdaP) {
    for (Feature feature : Feature.values()) {
      if (feature.cause() == Cause.DATA_SKEW && abovePeers(evidence.feature(feature), lambdaP)) {
        return false;
      }
    }
    return true;
  }

  private static boolean abovePeers(FeatureEvidence e, double lambdaP) {
    return e.value() > lambdaP * e.peerMean();
  }
}
