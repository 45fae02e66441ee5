package org.perflab.changes;

/**
 * Another measurement of a run, beyond the threshold of its own noise, that confirmed a change its judged metric
 * reached only part of the way ({@link ChangeKind#CORROBORATED}).
 *
 * @param metric what was measured, in words (e.g. {@value OffCpuWait#METRIC})
 * @param ratio the run's value ÷ the median of its baseline runs' values
 * @param z (ln value − ln that median) ÷ the baseline runs' noise on the value's side, estimated as the detector
 *     estimates a level's ({@link ChangeDetector#z}), at least the floor
 * @param runs the baseline runs the value was known for
 */
public record Corroboration(String metric, double ratio, double z, int runs) implements Confirmation {
  @Override
  public ChangeKind kind() {
    return ChangeKind.CORROBORATED;
  }
}
