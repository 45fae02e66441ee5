package org.perflab.dagmodel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.perflab.errors.BadInputException;
import org.perflab.queueing.PrecedenceGraph;
import org.perflab.sim.Distribution;
import org.perflab.sim.Model;
import org.perflab.sim.Stage;

/**
 * The input-size scaling rule: the model of a run on input size S turned into the model of the same application on
 * {@code ratio} × S (docs/simulator.md, "Scaling to another input size"). Each stage is classified by the bytes it
 * read ({@link Role}); with n tasks, n' = its new task count and r = {@code ratio}:
 *
 * <ul>
 *   <li>{@link Role#INPUT} (it read from storage): splits keep their size, so n' = max(1, round(n·r));
 *   <li>{@link Role#FOLLOWING_SHUFFLE} (it read only shuffles, with as many tasks as a nearest predecessor whose task
 *       count scales, as RDD default partitioning follows the parent's partitions): n' = max(1, round(n·r));
 *   <li>{@link Role#FIXED_SHUFFLE} (it read only shuffles, with its own partition count, as
 *       {@code spark.sql.shuffle.partitions} or an explicit count): n' = n;
 *   <li>{@link Role#UNCHANGED} (it read nothing: driver, start-up and scheduling delays, stages computing from
 *       nothing the input decides): kept as it is.
 * </ul>
 * In the first three, the stage's bytes become r times as many and each task's duration scales with its bytes per
 * task, by r·n/n': exactly 1 for input stages when n·r is whole, r for fixed shuffles. Replayed samples are
 * extended or cut in launch order ({@link #resample}), so the rule is deterministic. Predecessors are found through
 * delay stages (one task, a deterministic duration, no bytes).
 */
public final class DataScaling {
  /** How a stage's tasks follow the input size. */
  public enum Role {
    /** Reads from storage: one task per split of fixed size. */
    INPUT,
    /** Reads only shuffles, partitioned like a predecessor whose task count scales. */
    FOLLOWING_SHUFFLE,
    /** Reads only shuffles into a fixed number of partitions. */
    FIXED_SHUFFLE,
    /** Reads nothing that the input decides: unchanged. */
    UNCHANGED
  }

  private DataScaling() {}

  /** The bytes the model's stages read from storage (Σ {@code inputBytes}), in bytes. */
  public static long inputBytes(Model model) {
    return model.stages().stream().mapToLong(Stage::inputBytes).sum();
  }

  /** The ratio {@code targetBytes / sourceBytes}; bad input unless both are positive. */
  public static double ratio(long sourceBytes, long targetBytes) {
    BadInputException.require(sourceBytes > 0,
        "Cannot scale model to another input size: the source run's input size is unknown or 0 (%d bytes)",
        sourceBytes);
    BadInputException.require(targetBytes > 0,
        "Cannot scale model to another input size: the target input size must be > 0 bytes (%d)", targetBytes);
    return (double) targetBytes / sourceBytes;
  }

  /**
   * The model on {@code ratio} times its input; the model itself for ratio 1. Otherwise bad input when
   * {@code ratio} is not a positive finite number, or when no stage of the model read from storage (a model file
   * without stage bytes, or an application that read no input): then nothing says which stages grow with the input.
   */
  public static Model scale(Model model, double ratio) {
    BadInputException.require(ratio > 0 && Double.isFinite(ratio),
        "Cannot scale model to another input size: the ratio must be > 0 (%s)", ratio);
    if (ratio == 1.0) {
      return model;
    }
    requireInputBytes(model);
    Map<String, Role> roles = roles(model);
    List<Stage> scaled = new ArrayList<>();
    for (Stage s : model.stages()) {
      scaled.add(scale(s, roles.get(s.name()), ratio, model.nodes()));
    }
    return new Model(scaled, model.nodes(), model.users(), model.thinkTime(), model.maxJobs(), model.confIntCoeff(),
        model.seed(), model.taskChoice());
  }

  /**
   * Bad input unless some stage of the model records bytes read from storage: without them nothing says which
   * stages grow with the input (a model file written before stage bytes existed, or an application that read none).
   */
  public static void requireInputBytes(Model model) {
    BadInputException.require(inputBytes(model) > 0,
        "Cannot scale model to another input size: no stage records bytes read from storage (inputBytes); "
            + "rebuild the model with perflab model (%d stages)", model.stages().size());
  }

  /** The role of every stage, by name, in model order. */
  public static Map<String, Role> roles(Model model) {
    Map<String, Stage> byName = new LinkedHashMap<>();
    model.stages().forEach(s -> byName.put(s.name(), s));
    Map<String, Role> roles = new HashMap<>();
    for (int i : PrecedenceGraph.topologicalOrder(model)) {
      Stage s = model.stages().get(i);
      roles.put(s.name(), role(s, byName, roles));
    }
    Map<String, Role> ordered = new LinkedHashMap<>();
    model.stages().forEach(s -> ordered.put(s.name(), roles.get(s.name())));
    return ordered;
  }

  /** The new task count of a stage of {@code tasks} tasks on {@code ratio} times the input, for each role. */
  public static int tasks(int tasks, Role role, double ratio) {
    return switch (role) {
      case INPUT, FOLLOWING_SHUFFLE -> (int) Math.max(1, Math.min(Integer.MAX_VALUE, Math.round(tasks * ratio)));
      case FIXED_SHUFFLE, UNCHANGED -> tasks;
    };
  }

  /**
   * Replayed {@code samples} (in launch order) for {@code length} tasks: fewer tasks run the first {@code length}
   * samples; more tasks run all the samples, then cycle through those after the first wave (samples from index
   * {@code firstWave} on; all of them when there are none), because a run on more input starts as the smaller run
   * did (its first wave paying the application's warm-up: JIT, worker start, connections) and runs its added tasks
   * as the smaller run ran its later ones.
   *
   * @param firstWave tasks in the first wave: the slots of the run the samples come from
   */
  public static double[] resample(double[] samples, int length, int firstWave) {
    double[] out = Arrays.copyOf(samples, length);
    int steadyFrom = firstWave < samples.length ? Math.max(0, firstWave) : 0;
    int steady = samples.length - steadyFrom;
    for (int j = samples.length; j < length; j++) {
      out[j] = samples[steadyFrom + (j - samples.length) % steady];
    }
    return out;
  }

  /** The role of {@code s}, given the roles of all its predecessors. */
  private static Role role(Stage s, Map<String, Stage> byName, Map<String, Role> known) {
    if (s.inputBytes() > 0) {
      return Role.INPUT;
    }
    if (s.shuffleReadBytes() == 0) {
      return Role.UNCHANGED;
    }
    for (Stage p : dataPredecessors(s, byName)) {
      Role pr = known.get(p.name());
      if (p.tasks() == s.tasks() && (pr == Role.INPUT || pr == Role.FOLLOWING_SHUFFLE)) {
        return Role.FOLLOWING_SHUFFLE;
      }
    }
    return Role.FIXED_SHUFFLE;
  }

  /** The nearest predecessors of {@code s} that are not delay stages, looking through delay stages. */
  private static List<Stage> dataPredecessors(Stage s, Map<String, Stage> byName) {
    List<Stage> out = new ArrayList<>();
    List<String> pending = new ArrayList<>(s.pre());
    Set<String> seen = new HashSet<>();
    while (!pending.isEmpty()) {
      Stage p = byName.get(pending.remove(pending.size() - 1));
      if (!seen.add(p.name())) {
        continue;
      }
      if (isDelay(p)) {
        pending.addAll(p.pre());
      } else {
        out.add(p);
      }
    }
    return out;
  }

  /** A delay stage as DagModelBuilder makes them: one task of deterministic duration that reads nothing. */
  private static boolean isDelay(Stage s) {
    return s.tasks() == 1 && s.distribution() instanceof Distribution.Deterministic && !s.readsData();
  }

  /** The stage on {@code ratio} times the input; {@code firstWave} is the slots of the run it was built from. */
  private static Stage scale(Stage s, Role role, double ratio, int firstWave) {
    if (role == Role.UNCHANGED) {
      return s;
    }
    int tasks = tasks(s.tasks(), role, ratio);
    double perTask = ratio * s.tasks() / tasks;
    Distribution d = s.distribution();
    if (d instanceof Distribution.Replay replay && tasks != s.tasks()) {
      int length = (int) Math.max(1, Math.round((double) replay.samples().length * tasks / s.tasks()));
      d = new Distribution.Replay(resample(replay.samples(), length, firstWave));
    }
    if (Math.abs(perTask - 1.0) > 1e-12) {
      d = d.scaled(perTask);
    }
    return new Stage(s.name(), tasks, s.pre(), s.post(), d, Math.round(s.inputBytes() * ratio),
        Math.round(s.shuffleReadBytes() * ratio));
  }
}
