package org.perflab.stragglers;

/**
 * Why a straggler was slow: the vocabulary of the {@code stragglers} table's {@code causes} column
 * (docs/stragglers.md). A straggler may have several causes, or none (unexplained).
 */
public enum Cause {
  /** Input or shuffle-read bytes or records far above the stage's peers. */
  DATA_SKEW("input or shuffle-read bytes or records far above the stage's peers"),
  /** JVM garbage collection takes a large share of the task's time, far above the peers' share. */
  GC("JVM GC time a large share of the task, far above its peers"),
  /** Executor CPU time far above the peers' on like data (no data-skew feature fires). */
  CPU("executor CPU time far above its peers on like data"),
  /** Task deserialization or result serialization takes a large share of the task. */
  SERIALIZATION("task deserialization or result serialization a large share of the task"),
  /** Waiting for shuffle blocks takes a large share of the task. */
  SHUFFLE_FETCH("shuffle fetch wait a large share of the task"),
  /** Shuffle write time a large share of the task, or shuffle-write bytes far above the peers. */
  SHUFFLE_WRITE("shuffle write time a large share of the task, or shuffle bytes written far above its peers"),
  /** Memory or disk bytes spilled far above the peers. */
  SPILL("memory or disk bytes spilled far above its peers"),
  /** Time between launch and run (scheduler delay) a large share of the task. */
  SCHEDULER_DELAY("scheduler delay a large share of the task"),
  /** The task ran RACK_LOCAL or ANY while its stage's other tasks mostly ran process- or node-local. */
  LOCALITY("ran rack-local or anywhere while its peers mostly ran local"),
  /** Output bytes or records far above the peers. */
  OUTPUT("output bytes or records far above its peers"),
  /** Host CPU, I/O or network utilisation high before, during and after the task (needs OS metrics). */
  RESOURCE_CONTENTION("host CPU, I/O or network busy before, during and after the task (OS metrics only)"),
  /**
   * The task's host ran the application's other tasks slow too, on like data: their durations over their stages'
   * medians average (geometrically) beyond the straggler factor. The machine, not the task: heterogeneous or loaded
   * hardware, as the reference's causes and Mantri's last resort name it, seen from the event log alone.
   */
  SLOW_HOST("its host ran the application's other tasks slow too, on like data: the machine, not the task"),
  /**
   * The task was among its executor's first (launched before the executor finished any task of the application), and
   * the stage's other first tasks ran slow too against its tasks on executors already warm, on like data: the
   * executor's warm-up (JVM class loading and JIT, Python workers, jars and broadcast variables fetched), not the task.
   */
  COLD_EXECUTOR("among its executor's first tasks, which ran slow as a group against the stage's tasks on warm"
      + " executors, on like data: the executor's warm-up, not the task");

  private final String meaning;

  Cause(String meaning) {
    this.meaning = meaning;
  }

  /** One line for docs and reports. */
  public String meaning() {
    return meaning;
  }
}
