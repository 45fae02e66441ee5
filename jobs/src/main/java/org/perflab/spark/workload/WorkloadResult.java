package org.perflab.spark.workload;

/**
 * What a measured run produced, for logs and tests.
 *
 * @param workload the workload that ran
 * @param outputRecords records written to the output (for Sleep: tasks run), a count
 * @param detail a short workload-specific figure, e.g. {@code cost=123.4} for KMeans
 */
public record WorkloadResult(HiBenchWorkload workload, long outputRecords, String detail) {}
