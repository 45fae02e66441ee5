package org.perflab.sim;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * dagSim's discrete-event simulation of a stage DAG on {@code Nodes} task slots, with the corrections listed in
 * docs/simulator.md. A run is a pure function of the model and the seed: the engine reads no wall clock, and its
 * virtual clock starts at 0 in model time units.
 *
 * <p>Semantics, per application: stages start CAN_START when they have no predecessors and WAITING otherwise; a stage
 * becomes ready when all its predecessors have ENDED and ends when its last task ends; the application ends when
 * every stage has ended. Between applications the core lock applies: an application takes the lock when it starts
 * and holds it until all its stages have started and all their tasks have been placed (released at its next task
 * end, as in dagSim); only the lock holder places new tasks, and waiting applications take the lock in submission
 * order. Each of the {@code Users} closed-loop users submits its next application a think-time draw after the
 * previous one ends. Negative task durations (plain normal) count as 0.
 *
 * <p>Instances are immutable and may be shared across threads; each {@link #run} has its own state.
 */
public final class Engine {
  /** Applications a run completes before the {@code targetRelativeHalfWidth} stopping rule is checked. */
  public static final int MIN_APPS_FOR_TARGET = 100;

  private final Model model;
  private final int stageCount;
  private final int[] tasks;
  private final int[] preCount;
  private final int[] successorStart;
  private final int[] successors;
  private final int[] sources;

  public Engine(Model model) {
    this.model = model;
    List<Stage> stages = model.stages();
    Map<String, Integer> index = model.stageIndex();
    stageCount = stages.size();
    tasks = new int[stageCount];
    preCount = new int[stageCount];
    int[] successorCount = new int[stageCount];
    int sourceCount = 0;
    for (int s = 0; s < stageCount; s++) {
      tasks[s] = stages.get(s).tasks();
      preCount[s] = stages.get(s).pre().size();
      for (String p : stages.get(s).pre()) {
        successorCount[index.get(p)]++;
      }
      if (preCount[s] == 0) {
        sourceCount++;
      }
    }
    successorStart = new int[stageCount + 1];
    for (int s = 0; s < stageCount; s++) {
      successorStart[s + 1] = successorStart[s] + successorCount[s];
    }
    successors = new int[successorStart[stageCount]];
    int[] fill = Arrays.copyOf(successorStart, stageCount);
    sources = new int[sourceCount];
    int k = 0;
    for (int s = 0; s < stageCount; s++) {
      for (String p : stages.get(s).pre()) {
        int ps = index.get(p);
        successors[fill[ps]++] = s;
      }
      if (preCount[s] == 0) {
        sources[k++] = s;
      }
    }
  }

  public Model model() {
    return model;
  }

  /** Runs the model with its own seed until {@code maxJobs} applications have ended. */
  public Result run() {
    return run(model.seed(), 0.0);
  }

  /** Runs the model with the given seed until {@code maxJobs} applications have ended. */
  public Result run(long seed) {
    return run(seed, 0.0);
  }

  /**
   * Runs the model with the given seed until {@code maxJobs} applications have ended or, when
   * {@code targetRelativeHalfWidth} &gt; 0, until the CI half-width of execution time divided by its mean is at most
   * that target (checked every 32 applications from {@value #MIN_APPS_FOR_TARGET} on).
   */
  public Result run(long seed, double targetRelativeHalfWidth) {
    return new Run(seed, targetRelativeHalfWidth).simulate();
  }

  /** The mutable state of one run. */
  private final class Run {
    private final long seed;
    private final SplittableRandom rng;
    private final double target;
    private final Sampler[] samplers = new Sampler[stageCount];
    private final Sampler think;
    private final boolean fifo = model.taskChoice() == TaskChoice.FIFO;
    private final EventHeap heap;
    private boolean topPending;

    // Per user u and stage s, at index u * stageCount + s.
    private final int[] waitingPreds;
    private final int[] remaining;
    private final int[] ready;
    private final double[] stageStart;
    // Per user: stages with ready tasks, in the order they became ready, at u * stageCount + [head, tail).
    private final int[] readyStages;
    private final int[] readyHead;
    private final int[] readyTail;
    private final int[] readyTotal;
    private final int[] stagesToStart;
    private final int[] endedStages;
    private final double[] submitted;
    private final double[] started;

    private final int[] waitQueue;
    private int waitHead;
    private int waitSize;
    private int locker = -1;
    private int freeSlots = model.nodes();

    private final Accumulator total = new Accumulator();
    private final Accumulator waitTime = new Accumulator();
    private final Accumulator execution = new Accumulator();
    private final Accumulator[][] stageMeasures = new Accumulator[stageCount][4];
    private double[] executionTimes = new double[Math.min(model.maxJobs(), 1 << 16)];
    private int completed;
    private long dispatched;
    private boolean stop;

    Run(long seed, double target) {
      this.seed = seed;
      this.rng = new SplittableRandom(seed);
      this.target = target;
      for (int s = 0; s < stageCount; s++) {
        samplers[s] = model.stages().get(s).distribution().sampler();
        for (int m = 0; m < 4; m++) {
          stageMeasures[s][m] = new Accumulator();
        }
      }
      think = model.thinkTime().sampler();
      int users = model.users();
      heap = new EventHeap(model.nodes() + users + 1);
      waitingPreds = new int[users * stageCount];
      remaining = new int[users * stageCount];
      ready = new int[users * stageCount];
      stageStart = new double[users * stageCount];
      readyStages = new int[users * stageCount];
      readyHead = new int[users];
      readyTail = new int[users];
      readyTotal = new int[users];
      stagesToStart = new int[users];
      endedStages = new int[users];
      submitted = new double[users];
      started = new double[users];
      waitQueue = new int[users];
    }

    Result simulate() {
      for (int u = 0; u < model.users(); u++) {
        heap.push(nonNegative(think.next(rng)), -(u + 1));
      }
      int maxJobs = model.maxJobs();
      while (!stop && completed < maxJobs && !heap.isEmpty()) {
        double now = heap.topTime();
        int payload = heap.topPayload();
        topPending = true;
        if (payload < 0) {
          submit(-payload - 1, now);
        } else {
          int u = payload / stageCount;
          taskEnded(u, payload - u * stageCount, now);
        }
        if (topPending) {
          heap.pop();
          topPending = false;
        }
      }
      return result();
    }

    private void schedule(double time, int payload) {
      if (topPending) {
        heap.replaceTop(time, payload);
        topPending = false;
      } else {
        heap.push(time, payload);
      }
    }

    private void submit(int u, double now) {
      submitted[u] = now;
      int base = u * stageCount;
      for (int s = 0; s < stageCount; s++) {
        waitingPreds[base + s] = preCount[s];
        remaining[base + s] = tasks[s];
        ready[base + s] = 0;
        stageStart[base + s] = -1.0;
      }
      readyHead[u] = 0;
      readyTail[u] = 0;
      readyTotal[u] = 0;
      endedStages[u] = 0;
      stagesToStart[u] = stageCount;
      for (int s : sources) {
        makeReady(u, s);
      }
      if (freeSlots > 0 && locker == -1) {
        lock(u, now);
        dispatch(u, now);
      } else {
        waitQueue[(waitHead + waitSize++) % waitQueue.length] = u;
      }
    }

    private void makeReady(int u, int s) {
      int base = u * stageCount;
      ready[base + s] = tasks[s];
      readyTotal[u] += tasks[s];
      readyStages[base + readyTail[u]++] = s;
      stagesToStart[u]--;
    }

    private void lock(int u, double now) {
      locker = u;
      started[u] = now;
    }

    private void dispatch(int u, double now) {
      int base = u * stageCount;
      while (freeSlots > 0 && readyTotal[u] > 0) {
        int s = fifo ? takeFirst(u, base) : takeRandom(u, base);
        freeSlots--;
        readyTotal[u]--;
        double d = nonNegative(samplers[s].next(rng));
        stageMeasures[s][3].add(d);
        if (stageStart[base + s] < 0) {
          stageStart[base + s] = now;
        }
        schedule(now + d, base + s);
        dispatched++;
      }
    }

    private int takeFirst(int u, int base) {
      int s = readyStages[base + readyHead[u]];
      if (--ready[base + s] == 0) {
        readyHead[u]++;
      }
      return s;
    }

    /**
     * dagSim's draw: uniform among the ready tasks except the one appended last, unless it is the only one (its RPop
     * draws a 1-based position in [1, N-1]). Ready tasks are in stage-ready order, so that is the last task of the
     * last ready stage.
     */
    private int takeRandom(int u, int base) {
      int total = readyTotal[u];
      int r = total == 1 ? 0 : rng.nextInt(total - 1);
      for (int i = readyHead[u]; ; i++) {
        int s = readyStages[base + i];
        int count = ready[base + s];
        if (r < count) {
          ready[base + s] = count - 1;
          while (readyHead[u] < readyTail[u] && ready[base + readyStages[base + readyHead[u]]] == 0) {
            readyHead[u]++;
          }
          return s;
        }
        r -= count;
      }
    }

    private void taskEnded(int u, int s, double now) {
      freeSlots++;
      if (--remaining[u * stageCount + s] == 0) {
        stageEnded(u, s, now);
      }
      if (locker == u && readyTotal[u] == 0 && stagesToStart[u] == 0) {
        locker = -1;
      }
      if (locker == -1 && waitSize > 0) {
        int w = waitQueue[waitHead];
        waitHead = (waitHead + 1) % waitQueue.length;
        waitSize--;
        lock(w, now);
      }
      if (locker != -1) {
        dispatch(locker, now);
      }
    }

    private void stageEnded(int u, int s, double now) {
      int base = u * stageCount;
      double start = stageStart[base + s];
      stageMeasures[s][0].add(start - started[u]);
      stageMeasures[s][1].add(now - started[u]);
      stageMeasures[s][2].add(now - start);
      for (int i = successorStart[s]; i < successorStart[s + 1]; i++) {
        int q = successors[i];
        if (--waitingPreds[base + q] == 0) {
          makeReady(u, q);
        }
      }
      if (++endedStages[u] == stageCount) {
        applicationEnded(u, now);
      }
    }

    private void applicationEnded(int u, double now) {
      double exec = now - started[u];
      total.add(now - submitted[u]);
      waitTime.add(started[u] - submitted[u]);
      execution.add(exec);
      if (completed == executionTimes.length) {
        executionTimes = Arrays.copyOf(executionTimes, completed * 2);
      }
      executionTimes[completed++] = exec;
      schedule(now + nonNegative(think.next(rng)), -(u + 1));
      if (target > 0
          && completed >= MIN_APPS_FOR_TARGET
          && (completed & 31) == 0
          && execution.relativeHalfWidth(model.confIntCoeff()) <= target) {
        stop = true;
      }
    }

    private Result result() {
      double z = model.confIntCoeff();
      Map<String, StageResult> stages = new LinkedHashMap<>();
      for (int s = 0; s < stageCount; s++) {
        Accumulator[] m = stageMeasures[s];
        stages.put(
            model.stages().get(s).name(),
            new StageResult(m[0].measure(z), m[1].measure(z), m[2].measure(z), m[3].measure(z)));
      }
      double[] samples = Arrays.copyOf(executionTimes, completed);
      return new Result(
          seed, completed, dispatched, total.measure(z), waitTime.measure(z), execution.measure(z), stages,
          Percentiles.report(samples), samples);
    }
  }

  private static double nonNegative(double d) {
    return d > 0 ? d : 0.0;
  }
}
