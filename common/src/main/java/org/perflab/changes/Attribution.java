package org.perflab.changes;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import org.perflab.changes.PropertyChange.Mechanism;
import org.perflab.costmodel.SparkProperties;
import org.perflab.errors.BadInputException;
import org.perflab.findings.Rule;

/**
 * Ranks the differences between a run and its baseline run by the seconds of extra wall time each explains.
 *
 * <p>Each difference gets an estimate of its own, independent of the others (so their sum may exceed the extra
 * time; each is capped at it):
 *
 * <ul>
 *   <li>data: the baseline's wall time × (input ratio − 1), or shuffle-read ratio when nothing is read, when the
 *       bytes grew by more than {@value #DATA_TOLERANCE} of themselves;
 *   <li>fewer task slots: the baseline's task time × (1 ÷ slots now − 1 ÷ slots then) (the compute-bound time);
 *       a configuration change when an executor property changed, else resources (granted fewer than requested);
 *   <li>executor wait: the growth of the time from start to the first executor;
 *   <li>plan: the duration of stages added minus stages removed (stages matched with {@link StageMatcher});
 *   <li>stages: the growth of each matched stage, put on its first sign: a retry or more failed tasks (failures),
 *       spill (memory), more tasks (partitions), a straggler on a slow host that explains at least {@value
 *       #STRAGGLER_SHARE} of the growth (the environment: {@link #slowHost}), a straggler among its executor's first
 *       tasks that explains as much (resources: {@link #coldExecutor}), a longer longest task (skew), GC, shuffle
 *       fetch wait, more task time off the CPU (the CPU time grew by less than {@value #OFF_CPU_SHARE} of the task
 *       time), else more task time; a stage that grew with its task time unchanged is waiting for slots;
 *   <li>environment: every sizeable matched stage slower by a similar factor (spread of log ratios ≤
 *       {@value #ENVIRONMENT_SPREAD}) with data, slots, plan and configuration unchanged; or, with the same, the
 *       matched stages' task time grown by more than a tenth off the CPU (another process held the CPU, or a disk
 *       was slower: the same work took more time and no more CPU time);
 *   <li>time outside stages: the growth of the wall time not covered by any stage's span ({@link WallTimeSplit}:
 *       before the first stage, between stages, after the last) over the baseline runs' median.
 * </ul>
 *
 * <p>Time outside stages, and when it is the environment. Each part of the wall time, outside stages and inside them
 * (the union of the stage spans), is compared with the baseline runs' median of that part, in units of its own
 * run-to-run noise. The baseline runs compared are those with the run's configuration, slots and data (a run with
 * other shuffle partitions or memory in the same level of wall time spends its time differently), all of them when
 * none has; the noise is 1.4826 × the MAD of the part over the baseline runs, at least {@link
 * DetectorOptions#DEFAULT_NOISE_FLOOR} × their median wall time (the detector's floor: a wall time is not known better
 * than that, so neither is a part of it). A part <em>grew</em> when it is at least {@value #GREW_Z} noise units above
 * its median. Why {@value #GREW_Z} and not the detector's 4: the run is already a regression of its wall time; this
 * test only asks which parts moved with it, and a steady run's part lies that far above its median about 2 % of the
 * time (one-sided normal tail), the false-alarm rate the detector is held to. Then:
 *
 * <ul>
 *   <li>{@link CauseKind#ENVIRONMENT} when the application did the same work (the same configuration, slots, data and
 *       stages as the reference: the preconditions of the similar-factor test above) and both its time outside stages
 *       and its stages were slower (the stages' union grew, the similar-factor test holds, or their tasks waited off
 *       the CPU): a slower machine slows the driver too. Seconds: the growth outside stages plus the matched
 *       stages' growth that has no sign of its own (more task time, off the CPU, or waiting for slots), which this
 *       cause replaces;
 *   <li>else, when the time outside stages grew, {@link CauseKind#OUTSIDE_STAGES}, naming the part that grew most;
 *       seconds: its growth over the baseline median.
 * </ul>
 *
 * A stage mechanism with a matching property change (spill with {@code spark.executor.memory}, more tasks with
 * {@code spark.sql.shuffle.partitions}, a plan change with {@code spark.sql.autoBroadcastJoinThreshold}) is reported
 * as that configuration change, with the {@code --conf} that restores it.
 */
public final class Attribution {
  static final double DATA_TOLERANCE = 0.10;
  /**
   * What to do when more data explains a regression: nothing to restore when the input grew as the job's owners
   * expect, since runs that stay at that size become the workload's new level; else look upstream.
   */
  static final String MORE_DATA = "if the input grew as expected, nothing to restore (runs that stay at this size"
      + " become the workload's new level); else check what writes the job's input";
  private static final String EXECUTOR_MEMORY = "spark.executor.memory";
  private static final String DYNAMIC_ALLOCATION = "spark.dynamicAllocation.enabled";
  static final double ENVIRONMENT_SPREAD = 0.15;
  static final double GREW_Z = 2;
  static final double OFF_CPU_SHARE = 0.5;
  /**
   * The share of a stage's growth its straggler on a slow host, or on a cold executor, must explain to be its sign
   * ({@link #slowHost}, {@link #coldExecutor}).
   */
  static final double STRAGGLER_SHARE = 0.5;
  private static final double GIB = 1 << 30;

  /** What made a matched stage grow. */
  enum StageSign {
    FAILURES(null),
    SPILL(Rule.SPILL),
    PARTITIONS(Rule.SHUFFLE_PARTITIONS),
    SLOW_HOST(Rule.SLOW_HOSTS),
    COLD_EXECUTOR(Rule.COLD_EXECUTORS),
    SKEW(Rule.DATA_SKEW),
    GC(Rule.GC_PRESSURE),
    FETCH_WAIT(null),
    OFF_CPU(null),
    TASK_TIME(null),
    SLOT_WAIT(null);

    private final Rule finding;

    StageSign(Rule finding) {
      this.finding = finding;
    }
  }

  private final RunProfile run;
  private final RunProfile base;
  private final List<RunProfile> baseline;
  private final double extraS;
  private final Extra extraOf;
  private final List<PropertyChange> changes;
  private final StageAlignment alignment;
  private final Map<Integer, StageStats> runStages;
  private final Map<Integer, StageStats> baseStages;

  private Attribution(RunProfile run, RunProfile base, List<RunProfile> baseline, double extraS, Extra extraOf) {
    this.run = run;
    this.extraOf = extraOf;
    this.base = base;
    List<RunProfile> alike = baseline.stream().filter(b -> sameSetUp(b, run)).toList();
    this.baseline = alike.isEmpty() ? List.copyOf(baseline) : alike;
    this.extraS = Math.max(0, extraS);
    this.changes = PropertyChange.between(base.properties(), run.properties());
    this.alignment = StageMatcher.match(base.stageRefs(), run.stageRefs());
    this.runStages = byId(run.firstAttempts());
    this.baseStages = byId(base.firstAttempts());
  }

  /**
   * The causes of {@code run}'s extra time over {@code base}, most seconds first; property changes that explain no
   * measured time come last, with 0 s.
   *
   * @param run the judged run
   * @param base the baseline run to compare with (the baseline's median run)
   * @param extraS the run's extra wall time over the baseline median, in seconds (negative for an improvement)
   */
  public static List<RegressionCause> explain(RunProfile run, RunProfile base, double extraS) {
    return explain(run, base, List.of(base), extraS);
  }

  /**
   * The causes of {@code run}'s extra time over its baseline, most seconds first, as {@link #explain(RunProfile,
   * RunProfile, double)}; the time outside stages is compared with the median and noise of {@code baseline}.
   *
   * @param base the baseline run the stages, data and configuration are compared with (the baseline's median run)
   * @param baseline the baseline runs (with {@code base}); with one run, the noise is the floor
   */
  public static List<RegressionCause> explain(RunProfile run, RunProfile base, List<RunProfile> baseline,
      double extraS) {
    return explain(run, base, baseline, extraS, Extra.WALL_TIME);
  }

  /**
   * As {@link #explain(RunProfile, RunProfile, List, double)}, for a regression whose extra is of {@code extraOf}:
   * for a regression of cost alone ({@link Extra#CORE_HOURS}, {@link Extra#GB_HOURS}), {@code extraS} is that cost's
   * excess as a share of the baseline's wall time, and more task slots (and, for GB-hours, more executor memory) held
   * for the run's wall time are causes of it.
   */
  public static List<RegressionCause> explain(RunProfile run, RunProfile base, List<RunProfile> baseline,
      double extraS, Extra extraOf) {
    return new Attribution(run, base, baseline.isEmpty() ? List.of(base) : baseline, extraS, extraOf).causes();
  }

  /** What a regression's extra seconds measure. */
  public enum Extra {
    /** Wall time: the run took longer. */
    WALL_TIME,
    /**
     * Core-hours alone (the wall time is not a regression): the extra seconds are (core-hours ratio − 1) × the
     * baseline's wall time.
     */
    CORE_HOURS,
    /** GB-hours alone (neither wall time nor core-hours): (GB-hours ratio − 1) × the baseline's wall time. */
    GB_HOURS;

    /**
     * What a regression is of, from the verdicts on each metric (null when unknown): wall time when it is a
     * regression, else the first cost metric that is (core-hours, then GB-hours), else wall time.
     */
    public static Extra of(Verdict wallTime, Verdict coreHours, Verdict gbHours) {
      return wallTime != Verdict.REGRESSION && coreHours == Verdict.REGRESSION ? CORE_HOURS
          : wallTime != Verdict.REGRESSION && gbHours == Verdict.REGRESSION ? GB_HOURS : WALL_TIME;
    }
  }

  private List<RegressionCause> causes() {
    List<RegressionCause> out = new ArrayList<>();
    data().ifPresent(out::add);
    if (extraOf == Extra.WALL_TIME) {
      slots().ifPresent(out::add);
    } else {
      moreSlots().ifPresent(out::add); // fewer slots cost less: no cause of a cost regression
    }
    if (extraOf == Extra.GB_HOURS) {
      moreMemory().ifPresent(out::add);
    }
    executorWait().ifPresent(out::add);
    plan().ifPresent(out::add);
    Map<StageSign, List<String>> evidence = new EnumMap<>(StageSign.class);
    Map<String, Double> slowHosts = new HashMap<>();
    Map<StageSign, Double> growth = stageGrowth(evidence, slowHosts);
    boolean environment = environment();
    Optional<Shift> outside = shift(WallTimeSplit::outsideS);
    boolean outsideGrew = outside.filter(Shift::grew).isPresent();
    CpuSums cpu = cpuSums();
    boolean offCpu = sameWork() && cpu.waitedOffCpu();
    boolean slowerMachine = outsideGrew && sameWork()
        && (environment || offCpu || shift(WallTimeSplit::stagesS).filter(Shift::grew).isPresent());
    double generic = growth.getOrDefault(StageSign.TASK_TIME, 0.0) + growth.getOrDefault(StageSign.SLOT_WAIT, 0.0)
        + growth.getOrDefault(StageSign.OFF_CPU, 0.0);
    if (slowerMachine) {
      out.add(cause(CauseKind.ENVIRONMENT, "stages and the time outside them all slower",
          outside.get().grewS() + generic, splitEvidence() + (offCpu ? "; " + cpu.evidence() : "")
              + " with data, slots and configuration unchanged",
          "check the hosts of the driver and the executors for other load, then rerun"));
    } else if (offCpu && !environment) {
      out.add(cause(CauseKind.ENVIRONMENT, "tasks waited off CPU with the same work", generic,
          cpu.evidence() + " with data, slots and configuration unchanged",
          "check the executors' hosts for other processes holding the CPU or the disks, then rerun"));
    } else if (environment) {
      double seconds = growth.values().stream().mapToDouble(Double::doubleValue).sum();
      out.add(cause(CauseKind.ENVIRONMENT, "every stage slower by a similar factor", seconds,
          "median stage ratio " + fmt(medianStageRatio()) + "x with data, slots and configuration unchanged",
          "check the hosts for other load beside the executors, then rerun"));
    } else if (outsideGrew) {
      out.add(outsideStages(outside.get()));
    }
    for (Map.Entry<StageSign, Double> e : growth.entrySet()) {
      StageSign sign = e.getKey();
      if ((environment || slowerMachine || offCpu)
          && (sign == StageSign.TASK_TIME || sign == StageSign.SLOT_WAIT || sign == StageSign.OFF_CPU)) {
        continue;
      }
      if (sign == StageSign.SLOT_WAIT && run.cores() < base.cores()) {
        continue; // counted as fewer slots
      }
      out.add(stageCause(sign, e.getValue(), evidence.get(sign), slowHosts));
    }
    failedTasks().ifPresent(out::add);
    List<PropertyChange> unused = changes.stream()
        .filter(c -> out.stream().noneMatch(o -> o.what().contains(c.key()))).toList();
    for (PropertyChange c : unused) {
      out.add(new RegressionCause(CauseKind.CONFIGURATION, c.describe(), 0, "no measured time moved with it",
          c.restore()));
    }
    out.sort(Comparator.comparingDouble(RegressionCause::seconds).reversed());
    return merge(out);
  }

  /** {@code b}'s input bytes ÷ {@code a}'s, or shuffle-read bytes when nothing is read; 1 when neither. */
  private static double dataRatio(RunProfile a, RunProfile b) {
    return a.inputBytes() > 0 && b.inputBytes() > 0
        ? (double) b.inputBytes() / a.inputBytes()
        : a.shuffleReadBytes() > 0 ? (double) b.shuffleReadBytes() / Math.max(1, a.shuffleReadBytes()) : 1;
  }

  private Optional<RegressionCause> data() {
    double ratio = dataRatio(base, run);
    if (Math.abs(ratio - 1) <= DATA_TOLERANCE) {
      return Optional.empty();
    }
    String evidence = String.format(Locale.ROOT, "input %s -> %s (%sx), records %d -> %d, shuffle read %s -> %s",
        gib(base.inputBytes()), gib(run.inputBytes()), fmt(ratio), base.inputRecords(), run.inputRecords(),
        gib(base.shuffleReadBytes()), gib(run.shuffleReadBytes()));
    return Optional.of(cause(CauseKind.DATA, "data " + fmt(ratio) + "x the baseline's",
        base.wallS() * (ratio - 1), evidence, ratio > 1 ? MORE_DATA : ""));
  }

  private Optional<RegressionCause> slots() {
    if (run.cores() <= 0 || base.cores() <= 0 || run.cores() >= base.cores()) {
      return Optional.empty();
    }
    double seconds = base.taskTimeS() * (1.0 / run.cores() - 1.0 / base.cores());
    String evidence = String.format(Locale.ROOT, "task slots %d -> %d, executors granted %d -> %d (requested %d),"
        + " baseline task time %.0f s", base.cores(), run.cores(), base.executorsGranted(), run.executorsGranted(),
        run.executorsRequested(), base.taskTimeS());
    List<PropertyChange> cores = changesOf(Mechanism.CORES);
    if (!cores.isEmpty()) {
      return Optional.of(config(cores, seconds, evidence));
    }
    String what = run.executorsRequested() > run.executorsGranted()
        ? "granted " + run.executorsGranted() + " of " + run.executorsRequested() + " executors requested"
        : "fewer task slots (" + base.cores() + " -> " + run.cores() + ")";
    return Optional.of(cause(CauseKind.RESOURCES, what, seconds, evidence,
        "check the cluster's free capacity or the queue's limits at that time"));
  }

  /**
   * A cost regression's more task slots: core-hours are the slots held × the time, so holding {@code run.cores() ÷
   * base.cores()} times the slots for the run's wall time adds {@code run.wallS() × (that ratio − 1)} seconds of the
   * baseline's slots, whatever the wall time gained. A configuration change when an executor property changed.
   */
  private Optional<RegressionCause> moreSlots() {
    if (run.cores() <= 0 || base.cores() <= 0 || run.cores() <= base.cores()) {
      return Optional.empty();
    }
    double slotRatio = (double) run.cores() / base.cores();
    double seconds = run.wallS() * (slotRatio - 1);
    String evidence = String.format(Locale.ROOT, "task slots %d -> %d (%sx) ", base.cores(), run.cores(),
        fmt(slotRatio)) + heldFor();
    List<PropertyChange> cores = changesOf(Mechanism.CORES);
    if (!cores.isEmpty()) {
      return Optional.of(config(cores, seconds, evidence));
    }
    return Optional.of(cause(CauseKind.RESOURCES, "more task slots (" + base.cores() + " -> " + run.cores() + ")",
        seconds, evidence, "when the shorter run is not needed, cap the executors it is given"
            + " (spark.dynamicAllocation.maxExecutors, or spark.executor.instances)"));
  }

  /**
   * A GB-hours regression's larger executors: GB-hours are the executors' memory × their time, so executors of
   * {@code ratio} times the memory held for the run's wall time add {@code run.wallS() × (ratio − 1)} seconds of the
   * baseline's memory. Only from a change of {@code spark.executor.memory}, with the {@code --conf} that restores it.
   */
  private Optional<RegressionCause> moreMemory() {
    List<PropertyChange> memory = changes.stream().filter(c -> c.key().equals(EXECUTOR_MEMORY)).toList();
    if (memory.isEmpty()) {
      return Optional.empty();
    }
    double ratio;
    try {
      ratio = (double) SparkProperties.executorMemoryBytes(run.properties())
          / SparkProperties.executorMemoryBytes(base.properties());
    } catch (BadInputException unreadable) {
      return Optional.empty(); // a value Spark would not read either: the change is listed with 0 s
    }
    if (ratio <= 1) {
      return Optional.empty();
    }
    return Optional.of(config(memory, run.wallS() * (ratio - 1), "executor memory " + fmt(ratio) + "x " + heldFor()));
  }

  /** How long a cost regression held what it held: "for 0.60x the wall time (60 s against 100 s)". */
  private String heldFor() {
    return String.format(Locale.ROOT, "for %sx the wall time (%.0f s against %.0f s)", fmt(run.wallS() / base.wallS()),
        run.wallS(), base.wallS());
  }

  private Optional<RegressionCause> executorWait() {
    double seconds = run.executorWaitS() - base.executorWaitS();
    if (seconds < 1) {
      return Optional.empty();
    }
    return Optional.of(cause(CauseKind.RESOURCES, "waited for executors", seconds,
        String.format(Locale.ROOT, "first executor after %.1f s (baseline %.1f s)", run.executorWaitS(),
            base.executorWaitS()), "check the cluster's free capacity at that time"));
  }

  private Optional<RegressionCause> plan() {
    List<StageRef> added = alignment.added();
    List<StageRef> removed = alignment.removed();
    boolean planChanged = !Objects.equals(run.planFingerprint(), base.planFingerprint())
        || !run.joins().equals(base.joins());
    if (added.isEmpty() && removed.isEmpty() && !planChanged) {
      return Optional.empty();
    }
    double seconds = added.stream().mapToDouble(s -> duration(runStages, s)).sum()
        - removed.stream().mapToDouble(s -> duration(baseStages, s)).sum();
    String evidence = String.format(Locale.ROOT, "%d stages added (%s), %d removed; joins %s -> %s%s",
        added.size(), names(added), removed.size(), base.joins(), run.joins(),
        planChanged ? "; physical plan fingerprint changed" : "");
    List<PropertyChange> plan = changesOf(Mechanism.PLAN);
    if (!plan.isEmpty()) {
      return Optional.of(config(plan, seconds, evidence));
    }
    return Optional.of(cause(CauseKind.PLAN, planChanged ? "physical plan changed"
        : "stages added or removed", seconds, evidence, ""));
  }

  private Optional<RegressionCause> failedTasks() {
    double seconds = (run.failedTaskTimeS() - base.failedTaskTimeS()) / Math.max(1, run.cores());
    if (run.failedTasks() <= base.failedTasks() && run.speculativeTasks() <= base.speculativeTasks()
        && run.executorsLost() <= base.executorsLost()) {
      return Optional.empty();
    }
    String evidence = String.format(Locale.ROOT, "failed tasks %d -> %d, speculative %d -> %d, executors lost %d"
        + " -> %d, failed task time %.0f s -> %.0f s", base.failedTasks(), run.failedTasks(),
        base.speculativeTasks(), run.speculativeTasks(), base.executorsLost(), run.executorsLost(),
        base.failedTaskTimeS(), run.failedTaskTimeS());
    CauseKind kind = run.executorsLost() > base.executorsLost() ? CauseKind.RESOURCES : CauseKind.FAILURES;
    return Optional.of(cause(kind, kind == CauseKind.RESOURCES ? "executors lost" : "failed tasks",
        seconds, evidence, "read finding " + Rule.WASTED_TASKS));
  }

  /**
   * The growth of the matched stages, in seconds, by the first sign of why each grew. Fills {@code evidence} with
   * one line per grown stage by sign, and {@code slowHosts} with the seconds grown by the stages whose sign is
   * {@link StageSign#SLOW_HOST}, by host.
   */
  private Map<StageSign, Double> stageGrowth(Map<StageSign, List<String>> evidence, Map<String, Double> slowHosts) {
    Map<StageSign, Double> out = new EnumMap<>(StageSign.class);
    Map<Integer, Double> retried = retriedSeconds();
    for (Matched m : matchedStages()) {
      StageStats b = m.base();
      StageStats r = m.run();
      double retry = retried.getOrDefault(r.ref().stageId(), 0.0);
      double grew = r.durationS() + retry - b.durationS();
      if (grew <= 0) {
        continue;
      }
      StageSign sign = retry > 0 ? StageSign.FAILURES : sign(b, r, grew);
      out.merge(sign, grew, Double::sum);
      if (sign == StageSign.SLOW_HOST) {
        slowHosts.merge(r.slowHost(), grew, Double::sum);
      }
      evidence.computeIfAbsent(sign, k -> new ArrayList<>()).add(String.format(Locale.ROOT,
          "stage %d '%s' %.1f s -> %.1f s (%s)", r.ref().stageId(), r.ref().name(), b.durationS(),
          r.durationS() + retry, detail(sign, b, r)));
    }
    return out;
  }

  /** The first sign of what made matched stage {@code b} grow by {@code grewS} seconds into {@code r}. */
  private static StageSign sign(StageStats b, StageStats r, double grewS) {
    double taskGrowth = r.taskTimeS() - b.taskTimeS();
    if (r.failedTasks() > b.failedTasks()) {
      return StageSign.FAILURES;
    }
    if (r.spillBytes() > 2 * b.spillBytes() + (1 << 20)) {
      return StageSign.SPILL;
    }
    if (r.tasks() >= 1.5 * b.tasks() && r.tasks() > b.tasks() + 1) {
      return StageSign.PARTITIONS;
    }
    if (slowHost(b, r, grewS)) {
      return StageSign.SLOW_HOST;
    }
    if (coldExecutor(b, r, grewS)) {
      return StageSign.COLD_EXECUTOR;
    }
    if (r.maxOverMedian() >= 2 && r.maxOverMedian() >= 1.5 * b.maxOverMedian()) {
      return StageSign.SKEW;
    }
    if (taskGrowth > 0 && r.gcS() - b.gcS() > 0.3 * taskGrowth) {
      return StageSign.GC;
    }
    if (taskGrowth > 0 && r.fetchWaitS() - b.fetchWaitS() > 0.3 * taskGrowth) {
      return StageSign.FETCH_WAIT;
    }
    if (taskGrowth <= 0.1 * b.taskTimeS()) {
      return StageSign.SLOT_WAIT;
    }
    return offCpu(b.cpuS(), r.cpuS(), taskGrowth) ? StageSign.OFF_CPU : StageSign.TASK_TIME;
  }

  /**
   * Whether a slow host explains most of a matched stage's growth of {@code grewS} seconds: the excess over the
   * stage's median of its longest straggler on a slow host (a task cannot lengthen its stage by more than it ran over
   * the others) grew from {@code b} to {@code r} by at least {@value #STRAGGLER_SHARE} of the stage's growth. A host
   * that was as slow in the reference run is no change.
   */
  static boolean slowHost(StageStats b, StageStats r, double grewS) {
    return r.slowHost() != null && grewS > 0 && r.slowHostS() - b.slowHostS() >= STRAGGLER_SHARE * grewS;
  }

  /**
   * Whether an executor that had not warmed up explains most of a matched stage's growth of {@code grewS} seconds: the
   * excess over the stage's median of its longest straggler among its executor's first tasks ({@code COLD_EXECUTOR})
   * grew from {@code b} to {@code r} by at least {@value #STRAGGLER_SHARE} of the stage's growth: executors whose
   * first tasks ran in the stage (every executor's first wave, or executors started during it by dynamic allocation or
   * to replace a lost one) paid their warm-up there.
   */
  static boolean coldExecutor(StageStats b, StageStats r, double grewS) {
    return grewS > 0 && r.coldS() - b.coldS() >= STRAGGLER_SHARE * grewS;
  }

  /**
   * Whether task time that grew by {@code taskGrowthS} grew off the CPU: the CPU time known in both runs (Spark 2.1
   * and later log it) and grown by less than {@value #OFF_CPU_SHARE} of the task time's growth. Tasks that did the
   * same work in more time waited: for a CPU that other processes held, or for a disk or network (GC and shuffle
   * fetch wait have signs of their own).
   */
  static boolean offCpu(double baseCpuS, double runCpuS, double taskGrowthS) {
    return baseCpuS > 0 && runCpuS > 0 && taskGrowthS > 0 && runCpuS - baseCpuS < OFF_CPU_SHARE * taskGrowthS;
  }

  private static String detail(StageSign sign, StageStats b, StageStats r) {
    return switch (sign) {
      case FAILURES -> "failed tasks " + b.failedTasks() + " -> " + r.failedTasks() + ", retried";
      case SPILL -> "spill " + gib(b.spillBytes()) + " -> " + gib(r.spillBytes());
      case PARTITIONS -> "tasks " + b.tasks() + " -> " + r.tasks();
      case SLOW_HOST -> String.format(Locale.ROOT, "a task on host %s ran %.1f s over the stage's median, against"
          + " %.1f s before; the host's other tasks ran slow too", r.slowHost(), r.slowHostS(), b.slowHostS());
      case COLD_EXECUTOR -> String.format(Locale.ROOT, "a task among its executor's first ran %.1f s over the stage's"
          + " median, against %.1f s before; the stage's tasks on warm executors ran faster", r.coldS(), b.coldS());
      case SKEW -> "longest task " + fmt(b.maxOverMedian()) + "x -> " + fmt(r.maxOverMedian()) + "x the median";
      case GC -> String.format(Locale.ROOT, "GC %.1f s -> %.1f s", b.gcS(), r.gcS());
      case FETCH_WAIT -> String.format(Locale.ROOT, "fetch wait %.1f s -> %.1f s", b.fetchWaitS(), r.fetchWaitS());
      case OFF_CPU -> String.format(Locale.ROOT, "task time %.1f s -> %.1f s, CPU %.1f s -> %.1f s",
          b.taskTimeS(), r.taskTimeS(), b.cpuS(), r.cpuS());
      case TASK_TIME -> String.format(Locale.ROOT, "task time %.1f s -> %.1f s", b.taskTimeS(), r.taskTimeS());
      case SLOT_WAIT -> "task time unchanged";
    };
  }

  private RegressionCause stageCause(StageSign sign, double seconds, List<String> evidence,
      Map<String, Double> slowHosts) {
    String text = String.join("; ", evidence.subList(0, Math.min(3, evidence.size())))
        + (evidence.size() > 3 ? "; " + (evidence.size() - 3) + " more stages" : "");
    if (sign == StageSign.SLOW_HOST) {
      String hosts = hostsOf(slowHosts);
      return cause(CauseKind.ENVIRONMENT, "tasks on a slow host (" + hosts + ")", seconds, text, "check " + hosts
          + " (disks, CPU, other load) and take a faulty host out of service, or set spark.speculation=true so that"
          + " slow tasks are rerun elsewhere; read finding " + Rule.SLOW_HOSTS);
    }
    if (sign == StageSign.COLD_EXECUTOR && changesOf(Mechanism.CORES).isEmpty()) {
      boolean dynamic = "true".equalsIgnoreCase(run.properties().getOrDefault(DYNAMIC_ALLOCATION, "").trim());
      return cause(CauseKind.RESOURCES, "tasks on executors that had not warmed up", seconds, text, (dynamic
          ? "keep executors between jobs: a longer spark.dynamicAllocation.executorIdleTimeout, or a minimum of"
              + " executors (spark.dynamicAllocation.minExecutors)"
          : "each executor warms up once: run the same cores in fewer, larger executors, and for PySpark keep"
              + " spark.python.worker.reuse on") + "; read finding " + Rule.COLD_EXECUTORS);
    }
    Mechanism mechanism = switch (sign) {
      case COLD_EXECUTOR -> Mechanism.CORES;
      case SPILL, GC -> Mechanism.MEMORY;
      case PARTITIONS -> Mechanism.PARTITIONS;
      case TASK_TIME, FETCH_WAIT -> Mechanism.SHUFFLE;
      default -> null;
    };
    List<PropertyChange> related = mechanism == null ? List.of() : changesOf(mechanism);
    if (related.isEmpty() && (sign == StageSign.TASK_TIME)) {
      related = changes.stream().filter(c -> c.mechanism() == Mechanism.VERSION || c.mechanism() == Mechanism.OTHER)
          .toList();
    }
    if (!related.isEmpty()) {
      return config(related, seconds, text);
    }
    CauseKind kind = sign == StageSign.FAILURES ? CauseKind.FAILURES : CauseKind.STAGES;
    String what = switch (sign) {
      case FAILURES -> "stages retried or with failed tasks";
      case SPILL -> "stages spilled";
      case PARTITIONS -> "stages ran more tasks";
      case SLOW_HOST, COLD_EXECUTOR -> throw new AssertionError("reported before: " + sign);
      case SKEW -> "skew: one task much longer than the others";
      case GC -> "more GC";
      case FETCH_WAIT -> "longer shuffle fetch wait";
      case OFF_CPU -> "tasks waited off CPU: more task time, the same CPU time";
      case TASK_TIME -> "stages took more task time";
      case SLOT_WAIT -> "stages took longer with the same task time";
    };
    return cause(kind, what, seconds, text, sign.finding == null ? "" : "read finding " + sign.finding);
  }

  /** {@code growth}'s hosts, most seconds first, at most 3, joined by ", ". */
  private static String hostsOf(Map<String, Double> growth) {
    return growth.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed())
        .map(Map.Entry::getKey).limit(3).collect(Collectors.joining(", "));
  }

  /** A matched stage: its attempt in the reference and in the run. */
  private record Matched(StageStats base, StageStats run) {}

  /** The matched stages, in the alignment's order. */
  private List<Matched> matchedStages() {
    return alignment.matched().stream().map(p -> new Matched(baseStages.get(p.before().orElseThrow().stageId()),
        runStages.get(p.after().orElseThrow().stageId()))).toList();
  }

  /**
   * Σ task time and Σ CPU time, in seconds, of the matched stages whose CPU time both runs logged: in the reference
   * and in the run.
   */
  private record CpuSums(double baseTaskS, double runTaskS, double baseCpuS, double runCpuS) {
    /** Whether the task time grew by more than a tenth and off the CPU ({@link #offCpu}). */
    boolean waitedOffCpu() {
      return baseTaskS > 0 && runTaskS - baseTaskS > 0.1 * baseTaskS && offCpu(baseCpuS, runCpuS,
          runTaskS - baseTaskS);
    }

    String evidence() {
      return String.format(Locale.ROOT,
          "matched stages' task time %.1f s -> %.1f s, their CPU time %.1f s -> %.1f s", baseTaskS, runTaskS,
          baseCpuS, runCpuS);
    }
  }

  private CpuSums cpuSums() {
    List<Matched> logged = matchedStages().stream().filter(m -> m.base().cpuS() > 0 && m.run().cpuS() > 0).toList();
    return new CpuSums(logged.stream().mapToDouble(m -> m.base().taskTimeS()).sum(),
        logged.stream().mapToDouble(m -> m.run().taskTimeS()).sum(),
        logged.stream().mapToDouble(m -> m.base().cpuS()).sum(),
        logged.stream().mapToDouble(m -> m.run().cpuS()).sum());
  }

  /** Every sizeable matched stage slower by a similar factor, nothing else changed. */
  private boolean environment() {
    if (!sameWork()) {
      return false;
    }
    double[] ratios = sizeableRatios();
    if (ratios.length < 2) {
      return false;
    }
    double median = ChangeDetector.median(ratios);
    double spread = ChangeDetector.median(Arrays.stream(ratios).map(x -> Math.abs(x - median)).toArray());
    long slower = Arrays.stream(ratios).filter(x -> x > Math.log(1.1)).count();
    return median > Math.log(1.1) && spread <= ENVIRONMENT_SPREAD && slower >= 0.7 * ratios.length;
  }

  /** The same configuration, slots, data and stages as the reference: the application did the same work. */
  private boolean sameWork() {
    return sameSetUp(base, run) && alignment.added().isEmpty() && alignment.removed().isEmpty();
  }

  /**
   * The same configuration (properties that name one run aside), task slots and data (within {@value
   * #DATA_TOLERANCE}).
   */
  private static boolean sameSetUp(RunProfile a, RunProfile b) {
    return a.cores() == b.cores() && Math.abs(dataRatio(a, b) - 1) <= DATA_TOLERANCE
        && PropertyChange.between(a.properties(), b.properties()).stream()
            .allMatch(c -> c.mechanism() == Mechanism.OTHER);
  }

  /**
   * How far apart, as a ratio either way, two runs' inputs are another input size from {@link #setUpChange}: √2, half
   * an input-size class (a class is round(log₂ bytes), so runs √2 apart fall in different classes half the time).
   * Inputs that grow a few percent a night stay the same set-up; a run over twice the data does not.
   */
  static final double SIZE_APART = Math.sqrt(2);

  /**
   * What {@code run} set up otherwise than {@code base}, from what their logs hold, in words; empty when it did the same
   * work the same way. In order: effective properties that act on a run's time (every {@link Mechanism} but {@code
   * OTHER}: executors and cores, memory, the plan's and the shuffle's settings, partitions, the Spark version, the
   * JVM flags that act on time), task slots obtained, an input {@link #SIZE_APART} or further from the baseline's,
   * stages added or removed, a changed physical plan or join strategy. A change the run's own log shows, unlike its
   * machine's load.
   */
  public static Optional<String> setUpChange(RunProfile run, RunProfile base) {
    List<String> what = new ArrayList<>();
    PropertyChange.between(base.properties(), run.properties()).stream()
        .filter(c -> c.mechanism() != Mechanism.OTHER).sorted(PropertyChange.HEADLINE)
        .forEach(c -> what.add(c.describe()));
    if (run.cores() != base.cores()) {
      what.add("task slots " + base.cores() + " -> " + run.cores());
    }
    double ratio = dataRatio(base, run);
    if (ratio >= SIZE_APART || ratio <= 1 / SIZE_APART) {
      what.add("data " + fmt(ratio) + "x the baseline's");
    }
    StageAlignment alignment = StageMatcher.match(base.stageRefs(), run.stageRefs());
    if (!alignment.added().isEmpty() || !alignment.removed().isEmpty()) {
      what.add(alignment.added().size() + " stages added, " + alignment.removed().size() + " removed");
    } else if (!Objects.equals(run.planFingerprint(), base.planFingerprint()) || !run.joins().equals(base.joins())) {
      what.add("physical plan changed");
    }
    return what.isEmpty() ? Optional.empty() : Optional.of(String.join(", ", what));
  }

  /**
   * One part of the wall time in the run against the baseline runs: their median and noise (1.4826 × MAD, at least
   * the detector's floor × the baseline's median wall time), in seconds.
   */
  private record Shift(double runS, double medianS, double noiseS) {
    double grewS() {
      return runS - medianS;
    }

    double z() {
      return grewS() / noiseS;
    }

    /** At least {@value #GREW_Z} noise units above the baseline median. */
    boolean grew() {
      return z() >= GREW_Z;
    }
  }

  /** {@code part} of the run's wall time against the baseline's; empty when a split is unknown. */
  private Optional<Shift> shift(ToDoubleFunction<WallTimeSplit> part) {
    List<RunProfile> known = baseline.stream().filter(b -> b.split().known()).toList();
    if (!run.split().known() || known.isEmpty()) {
      return Optional.empty();
    }
    double[] xs = known.stream().mapToDouble(b -> part.applyAsDouble(b.split())).toArray();
    double floor = DetectorOptions.DEFAULT_NOISE_FLOOR
        * ChangeDetector.median(known.stream().mapToDouble(RunProfile::wallS).toArray());
    double noise = Math.max(ChangeDetector.robustSigma(xs), floor);
    return noise > 0 ? Optional.of(new Shift(part.applyAsDouble(run.split()), ChangeDetector.median(xs), noise))
        : Optional.empty();
  }

  /** The parts of the time outside stages. */
  private enum Outside {
    BEFORE("before the first stage", WallTimeSplit::beforeS,
        "check the driver's start-up and its work before the first job (submission, input listing, code before it)"),
    BETWEEN("between stages", WallTimeSplit::betweenS,
        "read the driver's log between the jobs: driver-side work (planning, collect, listing, broadcast) or waiting"),
    AFTER("after the last stage", WallTimeSplit::afterS,
        "check what the driver did after the last stage (writing results, commit, shutdown)");

    private final String where;
    private final ToDoubleFunction<WallTimeSplit> seconds;
    private final String action;

    Outside(String where, ToDoubleFunction<WallTimeSplit> seconds, String action) {
      this.where = where;
      this.seconds = seconds;
      this.action = action;
    }
  }

  /** The time outside stages grew and the environment does not explain it: named by the part that grew most. */
  private RegressionCause outsideStages(Shift outside) {
    Outside most = Arrays.stream(Outside.values())
        .max(Comparator.comparingDouble(p -> shift(p.seconds).map(Shift::grewS).orElse(0.0))).orElseThrow();
    return cause(CauseKind.OUTSIDE_STAGES, "time outside stages grew, most " + most.where, outside.grewS(),
        splitEvidence(), most.action);
  }

  /** The time outside stages and inside them, the run against the baseline's median, with each part. */
  private String splitEvidence() {
    StringBuilder text = new StringBuilder(describe("outside stages", shift(WallTimeSplit::outsideS).orElseThrow()));
    String parts = Arrays.stream(Outside.values()).map(p -> {
      Shift s = shift(p.seconds).orElseThrow();
      return String.format(Locale.ROOT, "%s %.1f s (%.1f s)", p.where, s.runS(), s.medianS());
    }).collect(Collectors.joining(", "));
    text.append(": ").append(parts).append("; ")
        .append(describe("inside stages", shift(WallTimeSplit::stagesS).orElseThrow()));
    return text.append("; ").append(baseline.size()).append(" baseline runs compared").toString();
  }

  private static String describe(String part, Shift s) {
    return String.format(Locale.ROOT, "%s %.1f s vs the baseline median %.1f s (noise %.1f s, z %.1f)", part,
        s.runS(), s.medianS(), s.noiseS(), s.z());
  }

  private double medianStageRatio() {
    return Math.exp(ChangeDetector.median(sizeableRatios()));
  }

  /** Log duration ratios of the matched stages that took at least 2 % of the baseline's wall time or 0.5 s. */
  private double[] sizeableRatios() {
    double least = Math.max(0.5, 0.02 * base.wallS());
    return matchedStages().stream()
        .filter(m -> m.base().durationS() >= least && m.run().durationS() > 0)
        .mapToDouble(m -> Math.log(m.run().durationS() / m.base().durationS())).toArray();
  }

  /** Seconds of the run's retried stage attempts (attempt above 0), by stage id. */
  private Map<Integer, Double> retriedSeconds() {
    return run.stages().stream().filter(s -> s.attempt() > 0)
        .collect(Collectors.groupingBy(s -> s.ref().stageId(), Collectors.summingDouble(StageStats::durationS)));
  }

  private List<PropertyChange> changesOf(Mechanism mechanism) {
    return changes.stream().filter(c -> c.mechanism() == mechanism).toList();
  }

  private RegressionCause config(List<PropertyChange> related, double seconds, String evidence) {
    String what = related.stream().map(PropertyChange::describe).collect(Collectors.joining(", "));
    String action = related.stream().map(PropertyChange::restore).collect(Collectors.joining(" "));
    return cause(CauseKind.CONFIGURATION, what, seconds, evidence, action);
  }

  private RegressionCause cause(CauseKind kind, String what, double seconds, String evidence, String action) {
    return new RegressionCause(kind, what, Math.min(Math.max(0, seconds), extraS), evidence, action);
  }

  /** One cause per (kind, what): two mechanisms that name the same property change add their seconds. */
  private List<RegressionCause> merge(List<RegressionCause> sorted) {
    Map<String, RegressionCause> byWhat = new LinkedHashMap<>();
    for (RegressionCause c : sorted) {
      byWhat.merge(c.kind() + "|" + c.what(), c, (a, b) -> new RegressionCause(a.kind(), a.what(),
          Math.min(extraS, a.seconds() + b.seconds()), a.evidence() + "; " + b.evidence(), a.action()));
    }
    List<RegressionCause> out = new ArrayList<>(byWhat.values());
    out.sort(Comparator.comparingDouble(RegressionCause::seconds).reversed());
    return out;
  }

  private static Map<Integer, StageStats> byId(List<StageStats> stages) {
    Map<Integer, StageStats> out = new HashMap<>();
    stages.forEach(s -> out.putIfAbsent(s.ref().stageId(), s));
    return out;
  }

  private static double duration(Map<Integer, StageStats> stages, StageRef ref) {
    StageStats s = stages.get(ref.stageId());
    return s == null ? 0 : s.durationS();
  }

  private static String names(List<StageRef> stages) {
    return stages.stream().limit(3).map(s -> s.stageId() + " '" + s.name() + "'")
        .collect(Collectors.joining(", ")) + (stages.size() > 3 ? ", ..." : "");
  }

  private static String gib(long bytes) {
    return String.format(Locale.ROOT, "%.2f GiB", bytes / GIB);
  }

  private static String fmt(double x) {
    return String.format(Locale.ROOT, "%.2f", x);
  }
}
