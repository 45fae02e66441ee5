package org.perflab.sim;

/** How the engine picks the next task to start among the ready tasks of the application holding the cores. */
public enum TaskChoice {
  /** Stages in the order they became ready (ties by stage order in the model), tasks in order: Spark's FCFS. */
  FIFO,
  /**
   * Public dagSim's random draw: uniform among the ready tasks except the most recently readied one, which is taken
   * only when it is the last (dagSim's RPop draws a position in [1, N-1] of its N-element ready list).
   */
  RANDOM
}
