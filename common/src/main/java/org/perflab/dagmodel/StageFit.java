package org.perflab.dagmodel;

import java.util.ArrayList;
import java.util.List;
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
 * <p>Two laws per stage, each a least-squares fit of logs, over the observed runs whose models have the template's
 * stages (the same count, each reading bytes or not as the template's does):
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

  /** A model of one of the workload's runs, the slots it ran on and its input size, bytes. */
  public record Observation(Model model, int slots, long inputBytes) {}

  /**
   * {@code template} with each stage's tasks and durations taken to {@code targetSlots} and {@code targetInputBytes}
   * by its laws over {@code observations} (which may include the template's own run). The input's change of task
   * counts and bytes per task is left to {@link DataScaling}, which the caller applies next.
   *
   * @param template the model to scale, of a run on {@code templateSlots} slots and {@code templateInputBytes} bytes
   * @param observations the workload's runs with models
   * @param targetSlots the slots to predict, ≥ 1
   * @param targetInputBytes the input to predict, bytes
   */
  public static Model at(Model template, int templateSlots, long templateInputBytes,
      List<Observation> observations, int targetSlots, long targetInputBytes) {
    if (targetSlots == templateSlots && targetInputBytes == templateInputBytes) {
      return template;
    }
    List<Observation> alike = observations.stream().filter(o -> sameStages(template, o.model())).toList();
    int sizeClass = SizeClass.of(templateInputBytes);
    List<Observation> sameSize = alike.stream().filter(o -> SizeClass.of(o.inputBytes()) == sizeClass).toList();
    double slotChange = Math.log((double) targetSlots / templateSlots);
    double byteChange = templateInputBytes > 0 && targetInputBytes > 0
        ? Math.log((double) targetInputBytes / templateInputBytes) : 0;
    List<Stage> stages = new ArrayList<>();
    for (int i = 0; i < template.stages().size(); i++) {
      Stage s = template.stages().get(i);
      double taskSlope = taskSlope(sameSize, i);
      int tasks = Math.abs(taskSlope) < MIN_TASK_SLOPE ? s.tasks()
          : (int) Math.max(1, Math.round(s.tasks() * Math.exp(taskSlope * slotChange)));
      double[] law = workLaw(alike, i);
      double factor = Math.exp(law[0] * slotChange + law[1] * byteChange) * s.tasks() / tasks;
      stages.add(factor == 1 && tasks == s.tasks() ? s : withTasks(s, tasks, factor, template.nodes()));
    }
    return new Model(stages, template.nodes(), template.users(), template.thinkTime(), template.maxJobs(),
        template.confIntCoeff(), template.seed(), template.taskChoice());
  }

  /**
   * The law of stage {@code index}'s {@link #work} over {@code runs}: the slopes of ln(work) against ln(slots) and
   * against ln(the application's input bytes), each bounded by {@link #MAX_SLOPE}, by least squares on both when both
   * vary and are not collinear (|correlation| &lt; {@link #MAX_COLLINEARITY}), else on the slots alone (the bytes'
   * slope 0). Work per byte already follows the bytes; the bytes' slope is what a stage that read no bytes (a
   * driver's or a scheduler's gap that grows with the input) or a stage whose work per byte changes with the input
   * adds.
   */
  static double[] workLaw(List<Observation> runs, int index) {
    List<double[]> points = new ArrayList<>();
    for (Observation o : runs) {
      double w = work(o.model().stages().get(index));
      if (w > 0 && Double.isFinite(w) && o.inputBytes() > 0) {
        points.add(new double[] {Math.log(o.slots()), Math.log(o.inputBytes()), Math.log(w)});
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

  /** The least-squares slope of ln(tasks) against ln(slots) for stage {@code index} over {@code runs}. */
  private static double taskSlope(List<Observation> runs, int index) {
    return slope(runs.stream().filter(o -> o.model().stages().get(index).tasks() > 0)
        .map(o -> new double[] {Math.log(o.slots()), Math.log(o.model().stages().get(index).tasks())}).toList());
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
