package org.perflab.recommend;

import org.perflab.costmodel.Codec;
import org.perflab.costmodel.SerializerKind;

/**
 * One point of the simulator sweep ({@code sweep_results}) as a candidate: the simulated mean is the prediction, the
 * simulated p90 the interval's upper end. {@code sweep_results} keeps no 10th percentile, so the lower end is the
 * p50 mirrored about the p90, max(0, 2·p50 − p90): exact for a symmetric distribution, an approximation otherwise.
 *
 * @param sizeClass the point's input-size class
 * @param executors executors
 * @param coresPerExecutor cores per executor
 * @param executorMemoryBytes executor memory, bytes; null when not in the grid
 * @param meanS simulated mean runtime, seconds
 * @param p50S simulated median, seconds
 * @param p90S simulated 90th percentile, seconds
 * @param codec the point's shuffle codec ({@code sweep_results.codec}); null when the grid had none
 * @param serializer the point's serializer ({@code sweep_results.serializer}); null when the grid had none
 * @param rule the scaling rule that simulated the point ({@code sweep_results.rule}); null when not recorded
 */
public record SweptPoint(int sizeClass, int executors, int coresPerExecutor, Long executorMemoryBytes, double meanS,
    double p50S, double p90S, Codec codec, SerializerKind serializer, String rule) implements java.io.Serializable {

  /** A point whose rule is not recorded. */
  public SweptPoint(int sizeClass, int executors, int coresPerExecutor, Long executorMemoryBytes, double meanS,
      double p50S, double p90S, Codec codec, SerializerKind serializer) {
    this(sizeClass, executors, coresPerExecutor, executorMemoryBytes, meanS, p50S, p90S, codec, serializer, null);
  }

  /** A point of a grid without codecs or serializers. */
  public SweptPoint(int sizeClass, int executors, int coresPerExecutor, Long executorMemoryBytes, double meanS,
      double p50S, double p90S) {
    this(sizeClass, executors, coresPerExecutor, executorMemoryBytes, meanS, p50S, p90S, null, null, null);
  }

  /** How {@code recommendations.predictor} names the sweep. */
  public static final String PREDICTOR = "sweep:mean";

  /** The point as a candidate. */
  public Candidate candidate() {
    return new Candidate(executors, coresPerExecutor, executorMemoryBytes, meanS, Math.max(0.0, 2 * p50S - p90S),
        p90S, codec, serializer);
  }
}
