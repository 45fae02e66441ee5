package org.perflab.memory.gc;

import java.util.List;
import java.util.OptionalLong;

/**
 * A heap recommendation for one executor JVM.
 *
 * @param heapBytes the heap (-Xmx, {@code spark.executor.memory}), bytes
 * @param edenBytes the eden size, bytes; present only for {@link Collector#PARALLEL} with {@link Basis#GC_MODEL}
 * @param tenuredBytes the tenured (old generation) size, bytes; present when eden is
 * @param collector the collector the advice is for
 * @param jvmFlags JVM options for {@code spark.executor.extraJavaOptions} that make the JVM match the model (empty for
 *     G1 and for the safety-factor fallback); never -Xmx, which Spark sets from {@code spark.executor.memory}: that
 *     must be exactly {@code heapBytes}, since the flags fix -Xms to it (the JVM refuses -Xms above -Xmx)
 * @param basis what the heap is derived from
 * @param predictedGcMs the GC model's predicted total pause time of the observed work at this configuration,
 *     milliseconds; NaN for the safety-factor fallback
 * @param evidence one line, for people: the observations used and the rule that bound the result
 */
public record HeapAdvice(long heapBytes, OptionalLong edenBytes, OptionalLong tenuredBytes, Collector collector,
    List<String> jvmFlags, Basis basis, double predictedGcMs, String evidence) {

  /** What a heap recommendation is derived from. */
  public enum Basis {
    /** The GC model's cost-minimising search over observed (Tier B) collections. */
    GC_MODEL,
    /** No usable GC telemetry: the framework's size × {@link HeapSizing#SAFETY_FACTOR}. */
    SAFETY_FACTOR
  }

  public HeapAdvice {
    jvmFlags = List.copyOf(jvmFlags);
  }
}
