package org.perflab.costmodel;

/**
 * A stage's predicted time on the sequential-stage simple simulator of the reference's §6.3: its tasks run in waves
 * of the cluster's slots.
 *
 * @param spec the stage
 * @param task the estimate of the stage's average task (its mean sizes)
 * @param waves ceil(tasks ÷ slots)
 * @param stageNs waves × meanTaskNs, ns
 * @param meanTaskNs taskTime averaged over the stage's task sizes ({@link StageSpec#sizeRatios()}), ns; the average
 *     task's taskTime when the stage has no size spread
 */
public record StageEstimate(StageSpec spec, TaskEstimate task, int waves, double stageNs, double meanTaskNs) {

  /** A stage whose tasks are all the average task. */
  public StageEstimate(StageSpec spec, TaskEstimate task, int waves, double stageNs) {
    this(spec, task, waves, stageNs, task.taskNs());
  }
}
