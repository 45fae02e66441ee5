package org.perflab.changes;

import java.util.Arrays;

/**
 * Confirms a slower run that its wall time alone left within noise when its tasks waited off the CPU beyond anything
 * their baseline runs show: another process held the CPU (or a disk or the network was slower), so the same work took
 * more task time and no more CPU time. The measurement is the run's task time per CPU second: Σ executor run time ÷ Σ
 * executor CPU time over the stage attempts that logged CPU time (Spark 2.1 and later); 1 for tasks that never left the
 * CPU, and it grows with every second a task spends waiting. It does not depend on the input's size or the slots, which
 * change the task time and the CPU time together; it does depend on the work's mix of I/O and computation, so it is
 * judged against the run's own baseline runs: the same workload's level.
 *
 * <p>Two measurements of one run: the wall time at least the pair threshold ({@link DetectorOptions#pairZ}, 2.54 for a
 * threshold of 4) above its level, and the task time per CPU second at least the threshold ({@link
 * DetectorOptions#threshold}) above its baseline runs' median, in units of their noise on that side (estimated as the
 * detector estimates a level's: {@link ChangeDetector#z}), and above every one of them, judged against at least 10 of
 * them (the pair test's least level). For normal noise a steady run reaches the first 1 time in 180 and the second,
 * its noise known, 3 times in 100,000: together, were they independent, far rarer than one run beyond the threshold
 * (3 in 100,000). The second's noise is estimated from 10 to 20 runs, so it passes more often (1 in 400 for 10
 * log-normal runs, 1 in 1,600 for 20); under that noise, the two together are still rarer than one run beyond the
 * threshold, and under right-skewed noise they add less than a tenth to the steady runs the detector already flags
 * ({@code OffCpuWaitTest}). The margin is for what the two measurements share: a steady run that a busy machine
 * slowed waited off the CPU too. Above every baseline run is the pair test's guard against right-skewed noise.
 * Measured on the regressions corpora and cems (docs/regressions.md#off-cpu).
 *
 * <p>Only regressions: a run that waited less than its baseline is judged by its wall time alone, as it would be
 * without this test (a quieter machine is no change to act on).
 */
public final class OffCpuWait {
  /** What the measurement is, in words. */
  public static final String METRIC = "task time per CPU second";

  private OffCpuWait() {}

  /**
   * The run's task time per CPU second: Σ task time ÷ Σ CPU time over its stage attempts with CPU time logged.
   *
   * @return a ratio, at least 1 for tasks that logged their CPU time truthfully; NaN when no stage logged CPU time
   */
  public static double perCpuSecond(RunProfile run) {
    double task = 0;
    double cpu = 0;
    for (StageStats s : run.stages()) {
      if (s.cpuS() > 0 && s.taskTimeS() > 0) {
        task += s.taskTimeS();
        cpu += s.cpuS();
      }
    }
    return cpu > 0 ? task / cpu : Double.NaN;
  }

  /**
   * Whether the wall time's judgement of a run is a candidate for corroboration: within noise, at least the pair
   * threshold above its level.
   */
  public static boolean candidate(Judgement wall, DetectorOptions options) {
    return wall.verdict() == Verdict.WITHIN_NOISE && wall.z() >= options.pairZ();
  }

  /**
   * The wall time's judgement of a run made a {@link Verdict#REGRESSION} of kind {@link ChangeKind#CORROBORATED} when
   * it is a {@link #candidate} and the run's task time per CPU second stands beyond the threshold above its baseline
   * runs' and above each of them; else {@code wall} unchanged.
   *
   * @param wall the run's wall-time judgement
   * @param run the run's {@link #perCpuSecond}
   * @param baseline the {@link #perCpuSecond} of the runs of the wall time's baseline (NaN for a run without); fewer
   *     than twice {@link DetectorOptions#minHistory} known values (the pair test's least level, 10 by default)
   *     confirm nothing
   */
  public static Judgement corroborate(Judgement wall, double run, double[] baseline, DetectorOptions options) {
    double[] known = Arrays.stream(baseline).filter(v -> v > 0 && Double.isFinite(v)).toArray();
    ChangeDetector detector = new ChangeDetector(options);
    if (!candidate(wall, options) || !(run > 0) || Double.isInfinite(run) || known.length < detector.pairLevelRuns()) {
      return wall;
    }
    double[] logs = Arrays.stream(known).map(Math::log).toArray();
    double x = Math.log(run);
    double z = detector.z(known, run);
    boolean aboveAll = Arrays.stream(logs).allMatch(b -> x > b);
    double ratio = Math.exp(x - ChangeDetector.median(logs));
    return z >= options.threshold() && aboveAll
        ? wall.confirmed(Verdict.REGRESSION, new Corroboration(METRIC, ratio, z, logs.length))
        : wall;
  }
}
