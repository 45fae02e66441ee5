package org.perflab.sweep;

import java.io.Serializable;
import org.perflab.costmodel.Codec;
import org.perflab.costmodel.SerializerKind;

/**
 * One configuration of a sweep: {@code executors} executors with {@code coresPerExecutor} cores and, when the grid
 * has memory, {@code executorMemoryGb} GB each (0 when the grid has none), on {@code inputBytes} bytes of input when
 * the grid has input sizes (0 when it has none: the swept run's own input), with the shuffle compression
 * {@code codec} ({@code spark.io.compression.codec}) and {@code serializer} ({@code spark.serializer}) when the grid
 * has them (null when it has none: the swept run's own).
 */
public record GridPoint(int executors, int coresPerExecutor, double executorMemoryGb, long inputBytes, Codec codec,
    SerializerKind serializer) implements Serializable {

  /** A point of a grid without codecs or serializers. */
  public GridPoint(int executors, int coresPerExecutor, double executorMemoryGb, long inputBytes) {
    this(executors, coresPerExecutor, executorMemoryGb, inputBytes, null, null);
  }

  /** A point of a grid without input sizes, codecs or serializers. */
  public GridPoint(int executors, int coresPerExecutor, double executorMemoryGb) {
    this(executors, coresPerExecutor, executorMemoryGb, 0L);
  }

  /** Task slots: executors × cores per executor ÷ {@code spark.task.cpus}, rounded down. */
  public int slots(int taskCpus) {
    return executors * coresPerExecutor / taskCpus;
  }

  /** Core·hours of a run lasting {@code seconds}: executors × cores × seconds / 3600. */
  public double coreHours(double seconds) {
    return executors * (double) coresPerExecutor * seconds / 3600.0;
  }

  /** GB·hours of a run lasting {@code seconds}: executors × memory × seconds / 3600. */
  public double gbHours(double seconds) {
    return executors * executorMemoryGb * seconds / 3600.0;
  }
}
