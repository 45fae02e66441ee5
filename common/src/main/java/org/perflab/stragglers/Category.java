package org.perflab.stragglers;

/**
 * How a {@link Feature}'s value is normalised and which BigRoots rule (reference 002 §2.1.3) decides whether it is a
 * root cause.
 */
public enum Category {
  /** A count (bytes, records, ms of CPU) divided by the stage's mean (Table 2); numeric rule (Eq. 3.3). */
  NUMERIC,
  /** A time divided by the task's duration, a share in [0, 1]; numeric rule and the time rule F > λT. */
  TIME,
  /** Host utilisation averaged over the task's run (Eq. 3.1); numeric rule and the corrected edge detection. */
  RESOURCE,
  /** Encoded locality 0/1/2 (Eq. 3.2); locality rule (Eq. 3.5). */
  LOCALITY
}
