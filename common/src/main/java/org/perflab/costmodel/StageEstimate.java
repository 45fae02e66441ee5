package org.perflab.costmodel;

/**
 * A stage's predicted time on the sequential-stage simple simulator of the reference's §6.3: its tasks run in waves
 * of the cluster's slots.
 *
 * @param spec the stage
 * @param task one task's estimate
 * @param waves ceil(tasks ÷ slots)
 * @param stageNs waves × taskTime, ns
 */
public record StageEstimate(StageSpec spec, TaskEstimate task, int waves, double stageNs) {}
