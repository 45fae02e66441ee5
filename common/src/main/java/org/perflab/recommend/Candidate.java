package org.perflab.recommend;

import org.perflab.costmodel.Codec;
import org.perflab.costmodel.SerializerKind;

/**
 * A configuration {@code recommend} considers, with its predicted runtime.
 *
 * @param executors executors
 * @param coresPerExecutor cores per executor
 * @param executorMemoryBytes the executor memory the prediction assumed, bytes; null when unknown
 * @param predictedS predicted runtime, seconds (> 0)
 * @param lowS lower end of the 80 % interval, seconds; null without one
 * @param highS upper end of the 80 % interval (p90), seconds; null without one
 * @param codec the shuffle compression codec the prediction assumed; null: the runs' own
 * @param serializer the serializer the prediction assumed; null: the runs' own
 */
public record Candidate(int executors, int coresPerExecutor, Long executorMemoryBytes, double predictedS, Double lowS,
    Double highS, Codec codec, SerializerKind serializer) implements java.io.Serializable {

  /** A candidate at the runs' own codec and serializer. */
  public Candidate(int executors, int coresPerExecutor, Long executorMemoryBytes, double predictedS, Double lowS,
      Double highS) {
    this(executors, coresPerExecutor, executorMemoryBytes, predictedS, lowS, highS, null, null);
  }

  /** Task slots: executors × cores per executor. */
  public int totalCores() {
    return executors * coresPerExecutor;
  }

  /** The runtime the deadline is judged on: the interval's upper end, else the prediction. */
  public double p90S() {
    return highS != null ? highS : predictedS;
  }
}
