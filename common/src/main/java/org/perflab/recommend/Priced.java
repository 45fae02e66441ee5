package org.perflab.recommend;

/**
 * A candidate with its predicted cost.
 *
 * @param candidate the configuration and its predicted runtime
 * @param memory the executor memory priced (the one {@code recommend} would set)
 * @param coreHours executors × cores per executor × predicted seconds ÷ 3600, core·h
 * @param gbHours executors × (executor memory + overhead, GiB) × predicted seconds ÷ 3600, GiB·h; null when the
 *     memory is unknown
 * @param cost in the prices' unit ({@link Prices#unit()})
 */
public record Priced(Candidate candidate, Memory memory, double coreHours, Double gbHours, double cost)
    implements java.io.Serializable {
  private static final double SECONDS_PER_HOUR = 3600.0;

  /** Prices {@code candidate} at {@code memory} (or the candidate's own memory when that has none). */
  public static Priced of(Candidate candidate, Memory memory, Prices prices) {
    Memory set = memory.orElse(candidate.executorMemoryBytes());
    double hours = candidate.predictedS() / SECONDS_PER_HOUR;
    double coreHours = candidate.totalCores() * hours;
    Double gib = set.containerGib();
    Double gbHours = gib == null ? null : candidate.executors() * gib * hours;
    return new Priced(candidate, set, coreHours, gbHours, prices.cost(coreHours, gbHours));
  }
}
