package org.perflab.dagmodel;

import static org.perflab.dagmodel.DagModelBuilder.DRIVER_JOB;
import static org.perflab.dagmodel.DagModelBuilder.SCHED;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.perflab.changes.StageAlignment;
import org.perflab.changes.StageMatcher;
import org.perflab.changes.StageRef;
import org.perflab.grouping.SizeClass;
import org.perflab.scaling.Ols;
import org.perflab.sim.Distribution;
import org.perflab.sim.Model;
import org.perflab.sim.Stage;

/**
 * The DAG-aware scaling of a run's model to another slot count and input (docs/prediction.md, "stages"): each stage's
 * work is
 * fitted across the workload's runs, and the stages are composed by the simulator, which decides waves and the
 * critical path at the target's slots. A single curve through the application's wall times cannot tell a stage that
 * already has fewer tasks than slots (more executors do not help it) from one that splits into more waves, nor an
 * input stage whose tasks slow down as more executors share the storage from a driver-bound one.
 *
 * <p>Two laws per stage, each a least-squares fit of logs, over the stage's counterparts in the observed runs: the
 * stages {@link StageMatcher} (the matcher of {@code compare} and {@code regressions}) pairs with it by job position
 * and call site, or, where the runs' stage places are not known, the stage at its position in a run whose model has
 * the template's stages (the same count, each reading bytes or not as the template's does):
 * <ul>
 *   <li>its <em>tasks</em> against the slots, over the runs of the template's input-size class: a stage whose
 *       partitions the
 *       configuration sets (a reduce stage with one partition per executor, a job partitioned by its default
 *       parallelism) changes its task count with the slots; an input stage's splits do not. A slope under
 *       {@link #MIN_TASK_SLOPE} either way is taken as a fixed count;
 *   <li>its <em>work</em>: the total of its tasks' mean duration, in task-seconds, per byte it read (storage plus
 *       shuffle) when it read bytes, else per run, against the slots and the application's input ({@link #workLaw}):
 *       how the stage's work per byte grows (contention) or shrinks with the slots, and what the input adds.
 * </ul>
 * The template's stage then takes the task count of its law at the target (its replayed durations extended or cut in
 * launch order, {@link DataScaling#resample}) and its work at the target spread evenly over them: its own distribution
 * of durations, scaled. A law seen at one slot count only, or in no other run, keeps the template's value: the
 * simulator alone then carries the change of slots.
 */
public final class StageFit {
  /** The largest slope of a stage's work against slots, either way: work per byte that doubles with the slots. */
  public static final double MAX_SLOPE = 1.0;
  /** The smallest slope of a stage's task count against slots taken as a law; below it the count is fixed. */
  public static final double MIN_TASK_SLOPE = 0.25;
  /** Above this |correlation| of ln(slots) and ln(input bytes) over the runs, the work is fitted on the slots alone. */
  public static final double MAX_COLLINEARITY = 0.9;

  private StageFit() {}

  /**
   * A model of one of the workload's runs, the slots it ran on, its input size (bytes), and where each of its model's
   * stages {@code S<id>} sits in the run ({@link DagModelBuilder#stageRefs}; empty when not known).
   */
  public record Observation(Model model, int slots, long inputBytes, List<StageRef> stages) {
    public Observation {
      stages = List.copyOf(stages);
    }

    /** A run whose stages' places are not known: matched to the template by position only. */
    public Observation(Model model, int slots, long inputBytes) {
      this(model, slots, inputBytes, List.of());
    }
  }

  /** One observation's counterpart of a template stage. */
  private record Seen(Observation run, Stage stage) {}

  /**
   * {@link #at(Model, List, int, long, List, int, long)} of a template whose stages' places are not known: stages
   * matched by position, in the runs with the template's stages.
   */
  public static Model at(Model template, int templateSlots, long templateInputBytes,
      List<Observation> observations, int targetSlots, long targetInputBytes) {
    return at(template, List.of(), templateSlots, templateInputBytes, observations, targetSlots, targetInputBytes);
  }

  /**
   * {@code template} with each stage's tasks and durations taken to {@code targetSlots} and {@code targetInputBytes}
   * by its laws over {@code observations} (which may include the template's own run). The input's change of task
   * counts and bytes per task is left to {@link DataScaling}, which the caller applies next.
   *
   * <p>A template stage's counterparts in the observations are found by {@link StageMatcher}, the matcher of
   * {@code compare} and {@code regressions}, when both runs' stage places are known ({@link #counterparts}); else by
   * position, in the runs whose models have the template's stages.
   *
   * @param template the model to scale, of a run on {@code templateSlots} slots and {@code templateInputBytes} bytes
   * @param templateStages where the template's stages sit in its run; empty when not known
   * @param observations the workload's runs with models
   * @param targetSlots the slots to predict, ≥ 1
   * @param targetInputBytes the input to predict, bytes
   */
  public static Model at(Model template, List<StageRef> templateStages, int templateSlots,
      long templateInputBytes, List<Observation> observations, int targetSlots, long targetInputBytes) {
    if (targetSlots == templateSlots && targetInputBytes == templateInputBytes) {
      return template;
    }
    return at(template, templateSlots, templateInputBytes, observations,
        observations.stream().map(o -> counterparts(template, templateStages, o)).toList(), targetSlots,
        targetInputBytes);
  }

  /**
   * {@link #at(Model, List, int, long, List, int, long)} with each observation's counterparts of the template's stages
   * already found ({@link #counterparts}, in {@code observations}' order): a caller that fits the same template
   * against the same runs for many targets matches each pair of runs once.
   */
  public static Model at(Model template, int templateSlots, long templateInputBytes, List<Observation> observations,
      List<List<Stage>> counterparts, int targetSlots, long targetInputBytes) {
    if (targetSlots == templateSlots && targetInputBytes == templateInputBytes) {
      return template;
    }
    List<List<Seen>> seen = new ArrayList<>();
    template.stages().forEach(s -> seen.add(new ArrayList<>()));
    for (int k = 0; k < observations.size(); k++) {
      Observation o = observations.get(k);
      List<Stage> matched = counterparts.get(k);
      for (int i = 0; i < matched.size(); i++) {
        if (matched.get(i) != null) {
          seen.get(i).add(new Seen(o, matched.get(i)));
        }
      }
    }
    int sizeClass = SizeClass.of(templateInputBytes);
    double slotChange = Math.log((double) targetSlots / templateSlots);
    double byteChange = templateInputBytes > 0 && targetInputBytes > 0
        ? Math.log((double) targetInputBytes / templateInputBytes) : 0;
    List<Stage> stages = new ArrayList<>();
    for (int i = 0; i < template.stages().size(); i++) {
      Stage s = template.stages().get(i);
      double taskSlope = taskSlope(seen.get(i).stream()
          .filter(x -> SizeClass.of(x.run().inputBytes()) == sizeClass).toList());
      int tasks = Math.abs(taskSlope) < MIN_TASK_SLOPE ? s.tasks()
          : (int) Math.max(1, Math.round(s.tasks() * Math.exp(taskSlope * slotChange)));
      double[] law = workLaw(seen.get(i));
      double factor = Math.exp(law[0] * slotChange + law[1] * byteChange) * s.tasks() / tasks;
      stages.add(factor == 1 && tasks == s.tasks() ? s : withTasks(s, tasks, factor, template.nodes()));
    }
    return new Model(stages, template.nodes(), template.users(), template.thinkTime(), template.maxJobs(),
        template.confIntCoeff(), template.seed(), template.taskChoice());
  }

  /**
   * Each template stage's counterpart in {@code run}'s model, in the template's order; null where it has none or where
   * one reads bytes and the other does not. With both runs' stage places known, {@link StageMatcher} aligns the stages
   * {@code S<id>} (by job position and call site), and the delay stages follow them: {@code sched-S<id>} that of its
   * stage, {@code driver-J<job>} the driver gap before the counterpart of the first stage it precedes,
   * {@code startup} and {@code driver-end} their namesakes. Otherwise a run whose model has the template's stages
   * (the same count, each reading bytes or not alike) is matched position by position, and any other has none.
   */
  public static List<Stage> counterparts(Model template, List<StageRef> templateStages, Observation run) {
    List<Stage> out = new ArrayList<>();
    if (templateStages.isEmpty() || run.stages().isEmpty()) {
      boolean alike = sameStages(template, run.model());
      template.stages().forEach(s -> out.add(alike ? run.model().stages().get(out.size()) : null));
      return out;
    }
    Map<Integer, Integer> stageMatch = new HashMap<>();
    for (StageAlignment.Pair p : StageMatcher.match(templateStages, run.stages()).matched()) {
      stageMatch.put(p.before().orElseThrow().stageId(), p.after().orElseThrow().stageId());
    }
    Map<String, Stage> byName = new HashMap<>();
    run.model().stages().forEach(s -> byName.put(s.name(), s));
    for (Stage t : template.stages()) {
      String name = counterpartName(t, template, stageMatch, run.model());
      Stage c = name == null ? null : byName.get(name);
      out.add(c != null && c.readsData() == t.readsData() ? c : null);
    }
    return out;
  }

  private static String counterpartName(Stage t, Model template, Map<Integer, Integer> stageMatch, Model run) {
    String name = t.name();
    if (name.equals(DagModelBuilder.STARTUP) || name.equals(DagModelBuilder.DRIVER_END)) {
      return name;
    }
    if (name.startsWith(SCHED)) {
      Integer m = stageMatch.get(stageId(name.substring(SCHED.length() - 1)));
      return m == null ? null : SCHED + m;
    }
    if (name.startsWith(DRIVER_JOB)) {
      Integer m = firstFollowerMatch(name, template, stageMatch);
      if (m == null) {
        return null;
      }
      for (Stage s : run.stages()) {
        if (s.name().equals("S" + m) || s.name().equals(SCHED + m)) {
          return s.pre().stream().filter(p -> p.startsWith(DRIVER_JOB)).findFirst().orElse(null);
        }
      }
      return null;
    }
    Integer id = stageId(name);
    Integer m = id == null ? null : stageMatch.get(id);
    return m == null ? null : "S" + m;
  }

  /** The matched id of the first stage {@code S<id>} (directly or through its {@code sched-S<id>}) after a gap. */
  private static Integer firstFollowerMatch(String gap, Model template, Map<Integer, Integer> stageMatch) {
    for (Stage s : template.stages()) {
      if (s.pre().contains(gap)) {
        String n = s.name().startsWith(SCHED) ? s.name().substring(SCHED.length() - 1) : s.name();
        Integer id = stageId(n);
        if (id != null && stageMatch.containsKey(id)) {
          return stageMatch.get(id);
        }
      }
    }
    return null;
  }

  /** The id of a model stage named {@code S<id>}; null for any other name. */
  private static Integer stageId(String name) {
    if (name.length() < 2 || name.charAt(0) != 'S') {
      return null;
    }
    try {
      return Integer.valueOf(name.substring(1));
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /**
   * The law of one template stage's {@link #work} over its counterparts in the runs: the slopes of ln(work) against
   * ln(slots) and against ln(the application's input bytes), each bounded by {@link #MAX_SLOPE}, by least squares on
   * both when both vary and are not collinear (|correlation| &lt; {@link #MAX_COLLINEARITY}), else on the slots alone
   * (the bytes' slope 0). Work per byte already follows the bytes; the bytes' slope is what a stage that read no bytes (a
   * driver's or a scheduler's gap that grows with the input) or a stage whose work per byte changes with the input
   * adds.
   */
  static double[] workLaw(List<Observation> runs, int index) {
    return workLaw(runs.stream().map(o -> new Seen(o, o.model().stages().get(index))).toList());
  }

  private static double[] workLaw(List<Seen> runs) {
    List<double[]> points = new ArrayList<>();
    for (Seen x : runs) {
      double w = work(x.stage());
      if (w > 0 && Double.isFinite(w) && x.run().inputBytes() > 0) {
        points.add(new double[] {Math.log(x.run().slots()), Math.log(x.run().inputBytes()), Math.log(w)});
      }
    }
    double slotSlope = bounded(slope(points.stream().map(p -> new double[] {p[0], p[2]}).toList()));
    if (points.size() < 4) {
      return new double[] {slotSlope, 0};
    }
    double[] m = new double[3];
    points.forEach(p -> {
      for (int k = 0; k < 3; k++) {
        m[k] += p[k] / points.size();
      }
    });
    double s11 = 0;
    double s22 = 0;
    double s12 = 0;
    double s1y = 0;
    double s2y = 0;
    for (double[] p : points) {
      double a = p[0] - m[0];
      double b = p[1] - m[1];
      double y = p[2] - m[2];
      s11 += a * a;
      s22 += b * b;
      s12 += a * b;
      s1y += a * y;
      s2y += b * y;
    }
    if (s11 <= 0 || s22 <= 0 || Math.abs(s12) / Math.sqrt(s11 * s22) >= MAX_COLLINEARITY) {
      return new double[] {slotSlope, 0};
    }
    double det = s11 * s22 - s12 * s12;
    return new double[] {bounded((s1y * s22 - s2y * s12) / det), bounded((s2y * s11 - s1y * s12) / det)};
  }

  private static double bounded(double slope) {
    return Math.max(-MAX_SLOPE, Math.min(MAX_SLOPE, slope));
  }

  /** Stage {@code s} with {@code tasks} tasks whose durations are its own times {@code factor}. */
  private static Stage withTasks(Stage s, int tasks, double factor, int firstWave) {
    Distribution d = s.distribution().scaled(factor);
    if (tasks != s.tasks() && d instanceof Distribution.Replay replay) {
      d = new Distribution.Replay(DataScaling.resample(replay.samples(), tasks, firstWave));
    }
    return new Stage(s.name(), tasks, s.pre(), s.post(), d, s.inputBytes(), s.shuffleReadBytes());
  }

  /** The least-squares slope of ln(tasks) against ln(slots) of one template stage over its counterparts. */
  private static double taskSlope(List<Seen> runs) {
    return slope(runs.stream().filter(x -> x.stage().tasks() > 0)
        .map(x -> new double[] {Math.log(x.run().slots()), Math.log(x.stage().tasks())}).toList());
  }

  /** The least-squares slope of y on x over {@code points} (x, y); 0 when x takes fewer than two values. */
  private static double slope(List<double[]> points) {
    double[] line = Ols.line(points.stream().mapToDouble(p -> p[0]).toArray(),
        points.stream().mapToDouble(p -> p[1]).toArray());
    return line == null ? 0 : line[1];
  }

  /** A stage's task-seconds (tasks × mean duration), per byte read when it read bytes. */
  static double work(Stage s) {
    double taskSeconds = s.tasks() * s.distribution().mean();
    long bytes = s.inputBytes() + s.shuffleReadBytes();
    return bytes > 0 ? taskSeconds / bytes : taskSeconds;
  }

  /** Whether two models have the same stages in the same order, each reading bytes or not alike. */
  static boolean sameStages(Model a, Model b) {
    if (a.stages().size() != b.stages().size()) {
      return false;
    }
    for (int i = 0; i < a.stages().size(); i++) {
      if (a.stages().get(i).readsData() != b.stages().get(i).readsData()) {
        return false;
      }
    }
    return true;
  }
}
