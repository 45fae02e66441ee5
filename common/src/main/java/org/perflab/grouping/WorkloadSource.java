package org.perflab.grouping;

/** Which step of the {@link WorkloadRule} gave an application its workload id. */
public enum WorkloadSource {
  /** PerfLab's own {@code spark.perflab.workload} tag, verbatim (trimmed). */
  TAG,
  /** The value of the property named by {@code --workload-property} (HiBench's or the user's tag), verbatim (trimmed). */
  PROPERTY,
  /** The application name, normalised by {@link WorkloadRule#normalizeName(String)}. */
  NAME
}
