package org.perflab.grouping;

import java.io.Serializable;

/**
 * An application's workload identity.
 *
 * @param id the workload id: runs with equal ids are runs of one workload, whatever their data size or configuration
 * @param source which step of the {@link WorkloadRule} gave the id
 */
public record Workload(String id, WorkloadSource source) implements Serializable {}
