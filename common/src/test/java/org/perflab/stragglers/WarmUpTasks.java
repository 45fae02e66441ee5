package org.perflab.stragglers;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Tasks of an application whose executors warm up: two stages of 16 tasks, one after the other, on four one-core
 * executors ("0" to "3" on hosts "host-0" to "host-3"); task {@code e * 4 + k} is the k-th task of executor e in its
 * stage, launched when the one before it on that executor finished. Shared by {@code ColdExecutorTest} and the
 * {@code diagnose} job's test, which must agree.
 */
public final class WarmUpTasks {
  /** When the first tasks launch, epoch ms. */
  public static final long START_MS = 1_700_000_000_000L;

  private WarmUpTasks() {}

  /** Duration in ms of the task {@code k} (0-3, in launch order) of executor {@code executor} (0-3) in {@code stage}. */
  public interface Durations {
    long ms(int stage, int executor, int k);
  }

  /**
   * The 32 tasks, each with 1,000 input bytes times its factor in {@code moreData} (keyed "stage/index", 1 when
   * absent) and 2 ms of GC.
   */
  public static List<TaskObservation> of(Durations durations, Map<String, Double> moreData) {
    List<TaskObservation> tasks = new ArrayList<>();
    long[] clock = new long[4];
    Arrays.fill(clock, START_MS);
    for (int stage = 0; stage < 2; stage++) {
      long stageStart = Arrays.stream(clock).max().orElseThrow();
      for (int e = 0; e < 4; e++) {
        clock[e] = stageStart;
        for (int k = 0; k < 4; k++) {
          int index = e * 4 + k;
          long ms = durations.ms(stage, e, k);
          double bytes = 1000.0 * moreData.getOrDefault(stage + "/" + index, 1.0);
          tasks.add(TaskObservation.of(stage, index, ms, Map.of(Feature.INPUT_BYTES, bytes, Feature.GC_TIME, 2.0))
              .onHost("host-" + e).onExecutor(Integer.toString(e), clock[e]));
          clock[e] += ms;
        }
      }
    }
    return tasks;
  }

  /** Stage 0's first task on every executor 300 ms, the rest 100 ms; in stage 1, executor 1's third task 200 ms. */
  public static long everyExecutorWarmsUpSlowly(int stage, int executor, int k) {
    return stage == 0 && k == 0 ? 300 : stage == 1 && executor == 1 && k == 2 ? 200 : 100;
  }
}
