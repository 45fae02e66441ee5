package org.perflab.sim;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.perflab.errors.BadInputException;

/**
 * A dagSim model: a stage DAG, {@code nodes} task slots (executors × cores per executor ÷ {@code spark.task.cpus}),
 * {@code users} closed-loop users who think for a {@code thinkTime} draw between applications, and the number of
 * applications to complete ({@code maxJobs}). Times are in the model's unit (seconds for models built from logs).
 *
 * <p>The constructor checks the DAG (known stage names, {@code post} the inverse of {@code pre}, no cycles) and throws
 * {@link BadInputException} naming the offending field. Models are serializable, so Spark can ship them to executors.
 */
public record Model(
    List<Stage> stages,
    int nodes,
    int users,
    Distribution thinkTime,
    int maxJobs,
    double confIntCoeff,
    long seed,
    TaskChoice taskChoice) implements Serializable {

  public static final int DEFAULT_MAX_JOBS = 1000;
  public static final double DEFAULT_CONF_INT_COEFF = 1.96;

  public Model {
    stages = List.copyOf(stages);
    BadInputException.require(!stages.isEmpty(), "Cannot use model: Stages is empty (at least 1 stage)");
    BadInputException.require(nodes >= 1, "Cannot use model: Nodes must be >= 1 (%d)", nodes);
    BadInputException.require(users >= 1, "Cannot use model: Users must be >= 1 (%d)", users);
    BadInputException.require(maxJobs >= 1, "Cannot use model: maxJobs must be >= 1 (%d)", maxJobs);
    BadInputException.require(
        confIntCoeff > 0 && Double.isFinite(confIntCoeff),
        "Cannot use model: confIntCoeff must be > 0 (%s)", confIntCoeff);
    checkDag(stages);
  }

  /** The same model with another number of task slots. */
  public Model withNodes(int newNodes) {
    return new Model(stages, newNodes, users, thinkTime, maxJobs, confIntCoeff, seed, taskChoice);
  }

  /** The same model with another seed. */
  public Model withSeed(long newSeed) {
    return new Model(stages, nodes, users, thinkTime, maxJobs, confIntCoeff, newSeed, taskChoice);
  }

  /** The same model with another number of applications to complete. */
  public Model withMaxJobs(int newMaxJobs) {
    return new Model(stages, nodes, users, thinkTime, newMaxJobs, confIntCoeff, seed, taskChoice);
  }

  /** The same model with another task choice. */
  public Model withTaskChoice(TaskChoice choice) {
    return new Model(stages, nodes, users, thinkTime, maxJobs, confIntCoeff, seed, choice);
  }

  /** Number of tasks in one application. */
  public long tasksPerApplication() {
    long n = 0;
    for (Stage s : stages) {
      n += s.tasks();
    }
    return n;
  }

  /** Index of each stage name. */
  public Map<String, Integer> stageIndex() {
    Map<String, Integer> index = new HashMap<>();
    for (int i = 0; i < stages.size(); i++) {
      index.put(stages.get(i).name(), i);
    }
    return index;
  }

  private static void checkDag(List<Stage> stages) {
    Map<String, Integer> index = new HashMap<>();
    for (int i = 0; i < stages.size(); i++) {
      Stage s = stages.get(i);
      BadInputException.require(
          s.name() != null && !s.name().isEmpty(), "Cannot use model: Stages[%d].name is empty", i);
      BadInputException.require(
          index.putIfAbsent(s.name(), i) == null,
          "Cannot use model: Stages[%d].name repeats an earlier stage (%s)", i, s.name());
      BadInputException.require(
          s.tasks() >= 1, "Cannot use model: Stages[%d].tasks must be >= 1 (%d)", i, s.tasks());
      BadInputException.require(
          s.distribution() != null, "Cannot use model: Stages[%d].distr is missing", i);
      BadInputException.require(s.inputBytes() >= 0 && s.shuffleReadBytes() >= 0,
          "Cannot use model: Stages[%d] bytes must be >= 0 (inputBytes %d, shuffleReadBytes %d)", i,
          s.inputBytes(), s.shuffleReadBytes());
    }
    List<List<Integer>> successors = new ArrayList<>();
    for (int i = 0; i < stages.size(); i++) {
      successors.add(new ArrayList<>());
    }
    for (int i = 0; i < stages.size(); i++) {
      Stage s = stages.get(i);
      for (int j = 0; j < s.pre().size(); j++) {
        Integer p = index.get(s.pre().get(j));
        BadInputException.require(
            p != null, "Cannot use model: Stages[%d].pre[%d] names no stage (%s)", i, j, s.pre().get(j));
        successors.get(p).add(i);
      }
      for (int j = 0; j < s.post().size(); j++) {
        Integer q = index.get(s.post().get(j));
        BadInputException.require(
            q != null, "Cannot use model: Stages[%d].post[%d] names no stage (%s)", i, j, s.post().get(j));
        BadInputException.require(
            stages.get(q).pre().contains(s.name()),
            "Cannot use model: Stages[%d].post[%d] is %s, but %s does not list %s in its pre",
            i, j, s.post().get(j), s.post().get(j), s.name());
      }
      for (String p : s.pre()) {
        BadInputException.require(
            s.post().isEmpty() || !s.post().contains(p),
            "Cannot use model: Stages[%d] lists %s in both pre and post", i, p);
      }
    }
    checkAcyclic(stages, successors);
  }

  private static void checkAcyclic(List<Stage> stages, List<List<Integer>> successors) {
    int[] indegree = new int[stages.size()];
    for (List<Integer> succ : successors) {
      for (int s : succ) {
        indegree[s]++;
      }
    }
    int[] queue = new int[stages.size()];
    int head = 0;
    int tail = 0;
    for (int i = 0; i < indegree.length; i++) {
      if (indegree[i] == 0) {
        queue[tail++] = i;
      }
    }
    while (head < tail) {
      for (int s : successors.get(queue[head++])) {
        if (--indegree[s] == 0) {
          queue[tail++] = s;
        }
      }
    }
    for (int i = 0; i < indegree.length; i++) {
      BadInputException.require(
          indegree[i] == 0, "Cannot use model: Stages[%d].pre closes a cycle (%s)", i, stages.get(i).name());
    }
  }
}
