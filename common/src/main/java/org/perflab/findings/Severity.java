package org.perflab.findings;

/**
 * How bad a finding is, graded as Dr. Elephant grades its heuristics: NONE, LOW, MODERATE, SEVERE, CRITICAL, in
 * ascending order. The {@code findings} table holds only findings of {@link #LOW} or worse.
 */
public enum Severity {
  NONE,
  LOW,
  MODERATE,
  SEVERE,
  CRITICAL;

  /** Whether this severity is reported (LOW or worse). */
  public boolean reported() {
    return compareTo(LOW) >= 0;
  }
}
