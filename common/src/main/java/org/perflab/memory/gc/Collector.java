package org.perflab.memory.gc;

/** The garbage collector a heap recommendation is for. */
public enum Collector {
  /**
   * The Parallel collector, which the GC model describes (fixed eden and tenured, survivors disabled): the advice sizes
   * eden and tenured and gives the flags that make the JVM match the model.
   */
  PARALLEL,
  /**
   * G1, Java 17's default: the model does not describe it, so the advice gives the heap only (the Parallel model's
   * heap) and no GC flags.
   */
  G1
}
