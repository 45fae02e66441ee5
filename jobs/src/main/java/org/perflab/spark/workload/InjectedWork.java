package org.perflab.spark.workload;

/** The per-task work of the {@code stragglers} workload, like for every task, heavier for the injected ones. */
final class InjectedWork {
  private InjectedWork() {}

  /** {@code rounds} rounds of SplitMix64's finaliser over {@code value}: pure CPU, no allocation. */
  static long mix(long value, int rounds) {
    long z = value;
    for (int round = 0; round < rounds; round++) {
      z = Generators.mix(z, round, 1);
    }
    return z;
  }

  /** The like work of a task: {@code records} records of {@code rounds} rounds each; returns a checksum. */
  static long records(long seed, int partition, long records, int rounds) {
    long sum = 0;
    for (long i = 0; i < records; i++) {
      sum += mix(seed ^ (partition * 1_000_003L + i), rounds);
    }
    return sum;
  }

  /** An injected map task: the like work plus the map-side injection of {@code injection}. */
  static long map(InjectionSpec injection, long seed, int partition, long records) throws InterruptedException {
    int rounds = StragglerWorkload.MAP_ROUNDS;
    return switch (injection.type()) {
      case CPU -> records(seed, partition, records, (int) Math.round(rounds * injection.factor()));
      case GC -> records(seed, partition, records, rounds)
          + churn(
          Math.round(records * injection.factor() * StragglerWorkload.GC_OBJECTS_PER_RECORD),
          StragglerWorkload.GC_LIVE_OBJECTS);
      case SLEEP -> sleepAfter(seed, partition, records, injection.factor());
      default -> records(seed, partition, records, rounds);
    };
  }

  /** The like work, then a sleep of (factor - 1) times its own duration: run time only. */
  private static long sleepAfter(long seed, int partition, long records, double factor) throws InterruptedException {
    long start = System.nanoTime();
    long sum = records(seed, partition, records, StragglerWorkload.MAP_ROUNDS);
    long workMs = (System.nanoTime() - start) / 1_000_000;
    Thread.sleep(Math.max(50, Math.round(workMs * (factor - 1))));
    return sum;
  }

  /**
   * Allocates {@code objects} small arrays, keeping the last {@code live} reachable, so that each young collection
   * copies the live window: the time goes to the collector, visible as the task's JVM GC time.
   */
  static long churn(long objects, int live) {
    long[][] window = new long[live][];
    long sum = 0;
    for (long i = 0; i < objects; i++) {
      long[] chunk = new long[8];
      chunk[0] = i;
      window[(int) (i % live)] = chunk;
      sum += window[(int) ((i * 7) % live)] == null ? 0 : 1;
    }
    return sum;
  }
}
