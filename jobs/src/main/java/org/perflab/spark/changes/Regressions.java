package org.perflab.spark.changes;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.catalyst.expressions.GenericRowWithSchema;
import org.perflab.changes.Attribution;
import org.perflab.changes.ChangeDetector;
import org.perflab.changes.ChangeKind;
import org.perflab.changes.Corroboration;
import org.perflab.changes.DetectorOptions;
import org.perflab.changes.EarlierRun;
import org.perflab.changes.Judgement;
import org.perflab.changes.KnownChange;
import org.perflab.changes.OffCpuWait;
import org.perflab.changes.RegressionCause;
import org.perflab.changes.RunProfile;
import org.perflab.changes.RunSettings;
import org.perflab.changes.SetUpChanged;
import org.perflab.changes.Trend;
import org.perflab.changes.Verdict;
import org.perflab.stragglers.Pcc;

/**
 * Judges runs against their workload's history and attributes each regression: the rows of the {@code regressions}
 * table. Each judged run is compared with the runs of its workload that started before it ({@link RunPoint#START_ORDER},
 * whatever order they were ingested in), on wall time, core-hours and GB-hours, each with its own
 * {@link ChangeDetector}; a regression's causes come from {@link Attribution} against the baseline run whose wall
 * time is closest to the baseline median, and the time outside stages against the median and noise of all the baseline
 * runs. Every judged run also names what changed since the run of its workload just before it, regression or not
 * ({@link RunSettings#changesSince}). No I/O: profiles and settings come through {@code profiles} and
 * {@code settings}.
 */
public final class Regressions {
  /** The metrics judged, in the order of a row's judgements. */
  private static final List<String> METRICS = List.of("wall time", "core-hours", "GB-hours");

  /** Judged runs whose settings are read at a time. */
  static final int SETTINGS_CHUNK = 1000;

  private Regressions() {}

  /**
   * The rows of the runs in {@code judged}.
   *
   * @param runs every run of every workload, in {@link RunPoint#START_ORDER}
   * @param judged the log ids to judge (the logs ingested since the last run, or all)
   * @param options the detector's thresholds
   * @param profiles the profiles of the given log ids (called once, with the regressions and their baseline runs)
   * @param settings the settings of the given log ids (called with the judged runs and the runs just before them
   *     that {@code profiles} did not return, {@value #SETTINGS_CHUNK} judged runs at a time, so that a full run over
   *     an archive holds a chunk's settings)
   * @param nowMs the judgement time, epoch ms
   */
  public static List<Row> judge(List<RunPoint> runs, Set<String> judged, DetectorOptions options,
      Function<Collection<String>, Map<String, RunProfile>> profiles,
      Function<Collection<String>, Map<String, RunSettings>> settings, long nowMs) {
    Map<String, List<RunPoint>> byWorkload = runs.stream().collect(Collectors.groupingBy(RunPoint::workloadId,
        HashMap::new, Collectors.toList()));
    ChangeDetector detector = new ChangeDetector(options);
    double open = options.tripleZ();
    List<Pending> pending = new ArrayList<>();
    for (List<RunPoint> series : byWorkload.values()) {
      if (series.stream().noneMatch(r -> judged.contains(r.logId()))) {
        continue;
      }
      series.sort(RunPoint.START_ORDER);
      double[] wallS = series.stream().mapToDouble(RunPoint::wallS).toArray();
      double[] coreHours = series.stream().mapToDouble(RunPoint::coreHours).toArray();
      double[] gbHours = series.stream().mapToDouble(RunPoint::gbHours).toArray();
      List<Judgement> wall = detector.judge(wallS);
      List<Judgement> core = detector.judge(coreHours);
      List<Judgement> gb = detector.judge(gbHours);
      List<Judgement> coreRate = detector.judge(perSecond(coreHours, wallS));
      List<Judgement> gbRate = detector.judge(perSecond(gbHours, wallS));
      for (int i = 0; i < series.size(); i++) {
        if (judged.contains(series.get(i).logId())) {
          List<Integer> baseline = wall.get(i).baseline();
          pending.add(new Pending(series, wall, i, List.of(wall.get(i),
              corroborated(core.get(i), wall.get(i), coreRate.get(i), open,
                  correlation(wallS, coreHours, baseline)),
              corroborated(gb.get(i), wall.get(i), gbRate.get(i), open,
                  correlation(wallS, gbHours, baseline))), options, null));
        }
      }
    }
    Set<String> wanted = new HashSet<>();
    pending.stream().filter(p -> p.verdict() == Verdict.REGRESSION || KnownChange.candidate(p.wall(), options)
            || p.inARow(Verdict.IMPROVEMENT))
        .forEach(p -> p.profilesWanted(wanted::add));
    Map<String, RunProfile> profiled = wanted.isEmpty() ? Map.of() : profiles.apply(wanted);
    pending.replaceAll(p -> p.offCpu(profiled).knownChange(profiled).confirmingKnownChange(profiled));
    Map<String, String[]> changes = new HashMap<>();
    for (int from = 0; from < pending.size(); from += SETTINGS_CHUNK) {
      List<Pending> chunk = pending.subList(from, Math.min(pending.size(), from + SETTINGS_CHUNK));
      Set<String> unread = new HashSet<>();
      chunk.forEach(p -> {
        unread.add(p.run().logId());
        p.previous().ifPresent(r -> unread.add(r.logId()));
      });
      Map<String, RunSettings> set = new HashMap<>();
      unread.removeIf(log -> { // a run profiled above has its settings: not read again
        RunProfile profile = profiled.get(log);
        if (profile != null) {
          set.put(log, RunSettings.of(profile));
        }
        return profile != null;
      });
      set.putAll(settings.apply(unread));
      chunk.forEach(p -> changes.put(p.run().logId(), p.changes(set)));
    }
    return pending.stream().map(p -> p.row(profiled, changes.get(p.run().logId()), nowMs)).toList();
  }

  /**
   * A cost metric's change, when the wall time or the cost per second of wall time (the cores or GB held on average)
   * changed the same way, or the wall time moved that way by at least {@code openZ} noise units (what the detector
   * already counts as the possible start of a change) and the cost is more than the wall time measured again; else
   * withdrawn. Core-hours and GB-hours are resources × the time they are held, so a steady run that runs long moves all
   * three metrics, and three correlated tests flag it more often than one; and each metric has its own change points,
   * so a cost metric can stand beyond its threshold against a level the wall time left runs before, for a run whose
   * wall time did not move. The cost is the wall time measured again when the two correlate over the wall time's
   * baseline runs at ρ ≥ {@link #ECHO} (executors held for the whole run, as with static allocation: a cost per second
   * that varies independently with at most half the wall time's noise); its change counts then only when the wall
   * time's does, or when the cost per second moved the same way by at least {@code openZ} too (the executors worked
   * longer as the run grew). Otherwise (dynamic allocation, executors that come and go) the cost is a measurement of
   * its own and the wall time's support suffices. A change of resources moves the cost per second, and stands
   * (docs/regressions.md#cost-corroborated).
   *
   * @param cost the cost metric's judgement
   * @param wall the wall time's judgement of the same run
   * @param rate the judgement of the cost ÷ wall time of the same run
   * @param openZ how far off its level each of the wall time and the cost per second must be, in its noise units, to
   *     back a cost change together
   * @param correlation the correlation of the cost's and the wall time's logs over the wall time's baseline runs
   *     ({@link #correlation}); NaN when unknown
   */
  static Judgement corroborated(Judgement cost, Judgement wall, Judgement rate, double openZ, double correlation) {
    Verdict v = cost.verdict();
    boolean wallMoved = v == Verdict.REGRESSION ? wall.z() >= openZ : wall.z() <= -openZ;
    boolean rateMoved = v == Verdict.REGRESSION ? rate.z() >= openZ : rate.z() <= -openZ;
    boolean measuredAgain = correlation >= ECHO;
    return !v.changed() || wall.verdict() == v || rate.verdict() == v || wallMoved && (rateMoved || !measuredAgain)
        ? cost : cost.withdrawn();
  }

  /**
   * The correlation from which a cost is the wall time measured again: 1 ÷ √1.25 = 0.894, that of a cost whose cost per
   * second varies independently of the wall time with at most half its noise.
   */
  static final double ECHO = 1 / Math.sqrt(1.25);

  /** Each run's {@code cost} ÷ its wall time: the cost per second of wall time. */
  private static double[] perSecond(double[] cost, double[] wallS) {
    double[] out = new double[cost.length];
    Arrays.setAll(out, i -> cost[i] / wallS[i]);
    return out;
  }

  /**
   * Pearson's correlation of the log wall times and the log costs of {@code runs} (indices into both series), over
   * those with both known; NaN for fewer than 3 such runs or no variation.
   */
  static double correlation(double[] wallS, double[] cost, List<Integer> runs) {
    double[] x = new double[runs.size()];
    double[] y = new double[runs.size()];
    int n = 0;
    for (int i : runs) {
      if (wallS[i] > 0 && cost[i] > 0 && Double.isFinite(wallS[i]) && Double.isFinite(cost[i])) {
        x[n] = Math.log(wallS[i]);
        y[n] = Math.log(cost[i]);
        n++;
      }
    }
    return n < 3 ? Double.NaN : Pcc.correlation(Arrays.copyOf(x, n), Arrays.copyOf(y, n));
  }

  /**
   * One judged run with its three judgements, before its causes are known.
   *
   * @param walls the wall-time judgements of every run of {@code series}
   * @param confirms the app id of the run just before whose known change this run confirmed (its own known change,
   *     pair or triple withdrawn: {@link #confirmingKnownChange}); null otherwise
   */
  private record Pending(List<RunPoint> series, List<Judgement> walls, int index, List<Judgement> judgements,
      DetectorOptions options, String confirms) {
    RunPoint run() {
      return series.get(index);
    }

    private Pending withWall(Judgement wall, String confirms) {
      return new Pending(series, walls, index, List.of(wall, judgements.get(1), judgements.get(2)), options, confirms);
    }

    /** Whether the wall time's judgement is a pair's or a triple's change in {@code verdict}'s direction. */
    boolean inARow(Verdict verdict) {
      return wall().verdict() == verdict && !wall().earlier().isEmpty();
    }

    /**
     * This run with its wall time's judgement made a change by its set-up ({@link KnownChange}), when {@code profiles}
     * holds it and its baseline's median run and they show it; else this run unchanged.
     */
    Pending knownChange(Map<String, RunProfile> profiles) {
      Judgement wall = known(wall(), index, profiles);
      return wall == wall() ? this : withWall(wall, null);
    }

    /** {@code judgement}, of run {@code at} of the series, confirmed by its set-up change; else unchanged. */
    private Judgement known(Judgement judgement, int at, Map<String, RunProfile> profiles) {
      RunProfile now = profiles.get(series.get(at).logId());
      if (now == null || judgement.baseline().isEmpty() || !KnownChange.candidate(judgement, options)) {
        return judgement;
      }
      RunProfile then = profiles.get(reference(judgement).logId());
      if (then == null) {
        return judgement;
      }
      List<RunProfile> baseline = judgement.baseline().stream().map(i -> profiles.get(series.get(i).logId()))
          .filter(Objects::nonNull).toList();
      return KnownChange.confirm(judgement, now, then, baseline, options);
    }

    /**
     * This run with its wall time's known change, pair or triple withdrawn (and its cost metrics' pairs and triples the
     * same way) when a run just before it (the run before, or an earlier run of the pair or triple) was itself a known
     * change in the same direction with the set-up this run has: the change was reported with that run, and this run
     * confirms it (a workload that stays at a new level is a regression once); else this run unchanged. A step beyond
     * the threshold stands, on any metric.
     */
    Pending confirmingKnownChange(Map<String, RunProfile> profiles) {
      Judgement wall = wall();
      RunProfile now = profiles.get(run().logId());
      if (now == null || !reportable(wall)) {
        return this;
      }
      for (int at : before()) {
        RunProfile earlier = profiles.get(series.get(at).logId());
        Judgement then = known(walls.get(at), at, profiles);
        if (earlier != null && then.kind().orElse(null) == ChangeKind.KNOWN_CHANGE && then.verdict() == wall.verdict()
            && Attribution.setUpChange(now, earlier).isEmpty()) {
          List<Judgement> withdrawn = judgements.stream().map(j -> j.verdict() == wall.verdict()
              && j.kind().filter(k -> k == ChangeKind.PAIR || k == ChangeKind.TRIPLE).isPresent()
              ? j.withdrawn() : j).toList();
          return new Pending(series, walls, index, List.of(wall.withdrawn(), withdrawn.get(1), withdrawn.get(2)),
              options, series.get(at).appId());
        }
      }
      return this;
    }

    /** A change a known change reported just before may already stand for: a known change, a pair or a triple. */
    private static boolean reportable(Judgement wall) {
      ChangeKind kind = wall.kind().orElse(null);
      return kind == ChangeKind.KNOWN_CHANGE || kind == ChangeKind.PAIR || kind == ChangeKind.TRIPLE;
    }

    /**
     * The runs just before this one that a known change may have been reported with: the earlier runs of a pair or a
     * triple, and the run before.
     */
    private List<Integer> before() {
      List<Integer> runs = new ArrayList<>();
      wall().earlier().forEach(e -> runs.add(e.run()));
      if (index > 0 && !runs.contains(index - 1)) {
        runs.add(index - 1);
      }
      return runs;
    }

    /**
     * The runs whose profiles judging this run needs: the run and its baseline, and when it may be or confirm a known
     * change, the runs just before it ({@link #before}) and their baselines.
     */
    void profilesWanted(Consumer<String> wanted) {
      wanted.accept(run().logId());
      wall().baseline().forEach(i -> wanted.accept(series.get(i).logId()));
      if (KnownChange.candidate(wall(), options) || !wall().earlier().isEmpty()) {
        for (int at : before()) {
          wanted.accept(series.get(at).logId());
          walls.get(at).baseline().forEach(i -> wanted.accept(series.get(i).logId()));
        }
      }
    }

    /**
     * This run with its wall time's judgement corroborated by its tasks' waits off the CPU ({@link OffCpuWait}),
     * when {@code profiles} holds it and its baseline runs and they confirm it; else this run unchanged.
     */
    Pending offCpu(Map<String, RunProfile> profiles) {
      RunProfile now = profiles.get(run().logId());
      if (now == null || !OffCpuWait.candidate(wall(), options)) {
        return this;
      }
      double[] baseline = wall().baseline().stream().map(i -> profiles.get(series.get(i).logId()))
          .mapToDouble(p -> p == null ? Double.NaN : OffCpuWait.perCpuSecond(p)).toArray();
      Judgement wall = OffCpuWait.corroborate(wall(), OffCpuWait.perCpuSecond(now), baseline, options);
      return wall == wall() ? this : withWall(wall, null);
    }

    Judgement wall() {
      return judgements.get(0);
    }

    /** The run of the workload that started just before this one; empty for its first run. */
    Optional<RunPoint> previous() {
      return index == 0 ? Optional.empty() : Optional.of(series.get(index - 1));
    }

    /** What changed since {@link #previous}; null for a first run or when either run's settings are unknown. */
    String[] changes(Map<String, RunSettings> settings) {
      RunSettings now = settings.get(run().logId());
      RunSettings before = previous().map(r -> settings.get(r.logId())).orElse(null);
      return now == null || before == null ? null : now.changesSince(before).toArray(String[]::new);
    }

    /** Insufficient or unmeasured wall time decides; else any regression, else any improvement. */
    Verdict verdict() {
      Verdict wall = wall().verdict();
      if (wall == Verdict.INSUFFICIENT_HISTORY || wall == Verdict.NOT_MEASURED) {
        return wall;
      }
      if (judgements.stream().anyMatch(j -> j.verdict() == Verdict.REGRESSION)) {
        return Verdict.REGRESSION;
      }
      return judgements.stream().anyMatch(j -> j.verdict() == Verdict.IMPROVEMENT) ? Verdict.IMPROVEMENT
          : Verdict.WITHIN_NOISE;
    }

    /** The baseline run whose wall time is closest to the baseline median. */
    RunPoint reference() {
      return reference(wall());
    }

    /** The run of {@code wall}'s baseline whose wall time is closest to its median. */
    private RunPoint reference(Judgement wall) {
      RunPoint best = null;
      for (int i : wall.baseline()) {
        RunPoint r = series.get(i);
        if (best == null || Math.abs(Math.log(r.wallS() / wall.baselineMedian()))
            < Math.abs(Math.log(best.wallS() / wall.baselineMedian()))) {
          best = r;
        }
      }
      return best;
    }

    Row row(Map<String, RunProfile> profiles, String[] changes, long nowMs) {
      RunPoint run = run();
      Judgement wall = wall();
      Verdict verdict = verdict();
      List<String> baseline = wall.baseline().stream().map(i -> series.get(i).appId()).toList();
      RunPoint reference = wall.baseline().isEmpty() ? null : reference();
      Double extra = null;
      List<RegressionCause> found = List.of();
      if (verdict == Verdict.REGRESSION) {
        double wallExtra = run.wallS() - wall.baselineMedian();
        Judgement core = judgements.get(1);
        Judgement gb = judgements.get(2);
        Attribution.Extra extraOf = Attribution.Extra.of(wall.verdict(), core.verdict(), gb.verdict());
        Judgement cost = extraOf == Attribution.Extra.GB_HOURS ? gb : core;
        extra = extraOf == Attribution.Extra.WALL_TIME ? Math.max(0, wallExtra)
            : Double.isNaN(cost.ratio()) ? 0 : Math.max(0, (cost.ratio() - 1) * wall.baselineMedian());
        RunProfile now = profiles.get(run.logId());
        RunProfile then = reference == null ? null : profiles.get(reference.logId());
        if (now != null && then != null) {
          List<RunProfile> baselineProfiles = wall.baseline().stream().map(i -> profiles.get(series.get(i).logId()))
              .filter(Objects::nonNull).toList();
          found = Attribution.explain(now, then, baselineProfiles, extra, extraOf);
        }
      }
      List<RegressionCause> causes = found;
      List<Row> causeRows = new ArrayList<>();
      for (int k = 0; k < causes.size(); k++) {
        RegressionCause c = causes.get(k);
        causeRows.add(RowFactory.create(k + 1, c.kind().name(), c.what(), c.seconds(),
            extra != null && extra > 0 ? c.seconds() / extra : null, c.evidence(), c.action()));
      }
      Set<String> actions = new LinkedHashSet<>();
      causes.stream().filter(c -> c.seconds() > 0 || causes.size() == 1).map(RegressionCause::action)
          .filter(a -> !a.isEmpty()).forEach(actions::add);
      String first = causes.isEmpty() || causes.get(0).seconds() <= 0 ? null
          : causes.get(0).kind() + ": " + causes.get(0).what();
      List<Object> values = new ArrayList<>(List.of(run.logId(), run.appId(), run.appAttemptId(), run.workloadId()));
      values.add(run.startMs() == Long.MIN_VALUE ? null : run.startMs());
      values.add(verdict.name());
      values.add(note(verdict, reference));
      values.add(changeKind(verdict).map(ChangeKind::name).orElse(null));
      values.add(index);
      values.add(baseline.size());
      values.add(baseline.toArray(String[]::new));
      values.add(reference == null ? null : reference.appId());
      values.add(wall.sinceChange());
      values.add(nan(run.wallS()));
      values.add(nan(wall.baselineMedian()));
      addMetric(values, wall);
      values.add(nan(run.coreHours()));
      addMetric(values, judgements.get(1));
      values.add(nan(run.gbHours()));
      addMetric(values, judgements.get(2));
      values.add(extra);
      values.add(first);
      values.add(causeRows.toArray(Row[]::new));
      values.add(actions.toArray(String[]::new));
      values.add(nowMs);
      values.add(previous().map(RunPoint::appId).orElse(null));
      values.add(changes);
      return new GenericRowWithSchema(values.toArray(), ChangeTables.REGRESSIONS);
    }

    private String note(Verdict verdict, RunPoint reference) {
      return switch (verdict) {
        case INSUFFICIENT_HISTORY -> String.format(Locale.ROOT,
            "%d earlier runs of this workload; %d needed for a verdict (--min-history)", index,
            options.minHistory());
        case NOT_MEASURED -> "no wall time: the log is incomplete";
        case REGRESSION -> {
          String how = howNote(verdict);
          String causes = reference == null ? null : "causes against the baseline's median run " + reference.appId();
          yield how == null ? causes : causes == null ? how : how + "; " + causes;
        }
        case IMPROVEMENT -> Optional.ofNullable(howNote(verdict)).orElseGet(this::sinceChangeNote);
        default -> sinceChangeNote();
      };
    }

    private String sinceChangeNote() {
      if (confirms != null) {
        return "the change reported with " + confirms + " (its set-up changed), confirmed: this run has its set-up and"
            + " stands off the level with it";
      }
      return wall().sinceChange()
          ? "judged against the new level the workload reached after a change already reported" : null;
    }

    /** The metrics' judgements that are changes in the row's direction, in the order wall time, core-h, GB-h. */
    private List<Judgement> changes(Verdict verdict) {
      return judgements.stream().filter(j -> j.verdict() == verdict).toList();
    }

    /**
     * How the row's change was found, from the metrics judged a change in its direction: {@code STEP} when one of them
     * is a run beyond the threshold, else {@code PAIR} when one is the second run of a pair, else {@code TRIPLE} when
     * one is the third run of a triple, else {@code CORROBORATED} when the wall time was confirmed by another
     * measurement, else {@code TREND}; empty when the row is no change.
     */
    private Optional<ChangeKind> changeKind(Verdict verdict) {
      List<Judgement> changes = changes(verdict);
      if (!verdict.changed() || changes.isEmpty()) {
        return Optional.empty();
      }
      for (ChangeKind kind : List.of(ChangeKind.STEP, ChangeKind.PAIR, ChangeKind.TRIPLE, ChangeKind.CORROBORATED,
          ChangeKind.KNOWN_CHANGE)) {
        if (changes.stream().anyMatch(j -> j.kind().orElseThrow() == kind)) {
          return Optional.of(kind);
        }
      }
      return Optional.of(ChangeKind.TREND);
    }

    /**
     * The first metric judged a change in the row's direction, with its judgement, when the row's change is of
     * {@code kind}.
     */
    private Optional<Map.Entry<String, Judgement>> firstOf(Verdict verdict, ChangeKind kind) {
      if (changeKind(verdict).orElse(null) != kind) {
        return Optional.empty();
      }
      for (int k = 0; k < judgements.size(); k++) {
        if (judgements.get(k).verdict() == verdict && judgements.get(k).kind().orElse(null) == kind) {
          return Optional.of(Map.entry(METRICS.get(k), judgements.get(k)));
        }
      }
      return Optional.empty();
    }

    /**
     * How a {@code TREND} rose, a {@code PAIR} or {@code TRIPLE} stood off the level, or a {@code CORROBORATED} change
     * was confirmed; null for a {@code STEP}.
     */
    private String howNote(Verdict verdict) {
      return changeKind(verdict).flatMap(kind -> firstOf(verdict, kind).map(metric -> switch (kind) {
        case TREND -> trendNote(metric);
        case PAIR, TRIPLE -> inARowNote(metric);
        case CORROBORATED -> corroboratedNote(metric);
        case KNOWN_CHANGE -> knownChangeNote(metric);
        case STEP -> null;
      })).orElse(null);
    }

    /**
     * "the second run in a row off the level: wall time 1.14× (z 2.9) in app-7, then 1.16× (z 3.1), against the
     * same 20 runs"; for a triple, "the third run in a row ...: ... in app-6, 1.12× (z 2.3) in app-7, then ...".
     */
    private String inARowNote(Map.Entry<String, Judgement> metric) {
      Judgement j = metric.getValue();
      StringBuilder runs = new StringBuilder();
      for (EarlierRun earlier : j.earlier()) {
        runs.append(runs.isEmpty() ? "" : ", ").append(String.format(Locale.ROOT, "%.2f× (z %.1f) in %s",
            earlier.ratio(), earlier.z(), series.get(earlier.run()).appId()));
      }
      return String.format(Locale.ROOT, "the %s run in a row off the level: %s %s, then %.2f× (z %.1f), against the"
          + " same %d runs", j.earlier().size() == 1 ? "second" : "third", metric.getKey(), runs, j.ratio(), j.z(),
          j.baseline().size());
    }

    /**
     * "wall time 1.27× (z 3.0), short of the threshold, confirmed by its task time per CPU second: 1.43× the median of
     * its 17 baseline runs (z 10.4), above each of them: the tasks waited off the CPU".
     */
    private static String corroboratedNote(Map.Entry<String, Judgement> metric) {
      Judgement j = metric.getValue();
      Corroboration c = (Corroboration) j.confirmation();
      return String.format(Locale.ROOT, "%s %.2f× (z %.1f), short of the threshold, confirmed by its %s: %.2f× the"
          + " median of its %d baseline runs (z %.1f), above each of them: the tasks waited off the CPU",
          metric.getKey(), j.ratio(), j.z(), c.metric(), c.ratio(), c.runs(), c.z());
    }

    /**
     * "wall time 1.30× (z 3.5), short of the threshold, with its set-up changed from 9 of its 10 baseline runs':
     * spark.cores.max 2 -> 1".
     */
    private static String knownChangeNote(Map.Entry<String, Judgement> metric) {
      Judgement j = metric.getValue();
      SetUpChanged c = (SetUpChanged) j.confirmation();
      return String.format(Locale.ROOT, "%s %.2f× (z %.1f), short of the threshold, with its set-up changed from %d of"
          + " its %d baseline runs': %s", metric.getKey(), j.ratio(), j.z(), c.differing(), c.runs(), c.what());
    }

    /**
     * "a gradual change: wall time +0.8 % a run over its latest 14 runs (Mann–Kendall z 3.6), 1.12× the first 5 of
     * them".
     */
    private static String trendNote(Map.Entry<String, Judgement> metric) {
      Judgement j = metric.getValue();
      Trend t = j.trend();
      return String.format(Locale.ROOT, "a gradual change: %s %+.1f %% a run over its latest %d runs (Mann–Kendall z"
          + " %.1f), %.2f× the first %d of them", metric.getKey(), 100 * (t.ratioPerRun() - 1), t.runs(),
          t.mannKendallZ(), j.ratio(), j.baseline().size());
    }

    private static void addMetric(List<Object> values, Judgement j) {
      values.add(nan(j.ratio()));
      values.add(nan(j.z()));
      values.add(j.verdict().name());
    }

    private static Double nan(double x) {
      return Double.isNaN(x) || Double.isInfinite(x) ? null : x;
    }
  }
}
