package org.perflab.memory.gc;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.LongSupplier;

/**
 * An exact, event-driven two-generation stop-the-world collector (reference 004 §2.8.1) replaying an allocation trace of
 * objects with known lifetimes: the ground truth the GC model's predictions are tested against.
 *
 * <p>Objects are allocated in order into eden; when the next one does not fit, a collection runs at that point of the
 * allocation timeline. A young collection copies eden's live objects into tenured; when they do not fit in tenured's
 * free space a full collection runs instead, keeping every live object (eden's included) in tenured; when those do not
 * fit the run is out of memory. Pauses: young 1 ms + 2 ms per promoted MiB; full 5 ms + 10 ms per tenured GiB.
 */
final class TwoGenerationSimulator {
  static final long MIB = 1L << 20;
  static final double NON_GC_MS = 60_000;

  /** Object sizes and death points on the allocation timeline (bytes), in allocation order. */
  record Trace(long[] sizes, long[] deaths) {}

  /** A simulated run; {@code run} is null when it ran out of memory. */
  record Result(GcRun run, boolean outOfMemory) {}

  private TwoGenerationSimulator() {}

  /**
   * A Spark-like trace: 64 KiB objects, 4 GiB allocated; most objects die within an exponential 2 MiB of allocation; a
   * loading phase (the first 256 MiB) keeps half its objects for the whole run (a cached dataset of about 128 MiB); then
   * cyclic phases of 512 MiB each keep 5 % of their objects until the phase ends (a chunk being processed).
   */
  static Trace sparkLike(long seed) {
    Random random = new Random(seed);
    int n = (int) ((4L << 30) / (64 << 10));
    long[] sizes = new long[n];
    long[] deaths = new long[n];
    long at = 0;
    long end = (long) n * (64 << 10);
    for (int i = 0; i < n; i++) {
      sizes[i] = 64 << 10;
      double u = random.nextDouble();
      if (at < 256 * MIB && u < 0.5) {
        deaths[i] = Long.MAX_VALUE;
      } else if (u < 0.05) {
        deaths[i] = Math.min(end, (at / (512 * MIB) + 1) * 512 * MIB);
      } else {
        deaths[i] = at + sizes[i] + (long) (-Math.log(1 - random.nextDouble()) * 2 * MIB);
      }
      at += sizes[i];
    }
    return new Trace(sizes, deaths);
  }

  /** The run at a fixed eden size. */
  static Result run(Trace trace, long edenBytes, long tenuredBytes) {
    return run(trace, () -> edenBytes, edenBytes, tenuredBytes);
  }

  /**
   * The run with the effective eden size drawn anew after every collection (the reference's eden sampler, §2.8.5);
   * {@code capacityBytes} is the real eden reported as capacity.
   */
  static Result run(Trace trace, LongSupplier effectiveEden, long capacityBytes, long tenuredBytes) {
    List<GcObservation> collections = new ArrayList<>();
    List<Integer> eden = new ArrayList<>();
    List<Integer> tenured = new ArrayList<>();
    long edenUsed = 0;
    long oldUsed = 0;
    long at = 0;
    long edenSize = effectiveEden.getAsLong();
    for (int i = 0; i < trace.sizes().length; i++) {
      if (edenUsed + trace.sizes()[i] > edenSize) {
        long promoted = liveBytes(trace, eden, at);
        if (oldUsed + promoted <= tenuredBytes) {
          keepLive(trace, eden, at, tenured);
          oldUsed += promoted;
          collections.add(GcObservation.young(edenUsed, capacityBytes, promoted, oldUsed, tenuredBytes,
              1 + 2.0 * promoted / MIB));
        } else {
          keepLive(trace, eden, at, tenured);
          long now = at;
          tenured.removeIf(o -> trace.deaths()[o] <= now);
          oldUsed = tenured.stream().mapToLong(o -> trace.sizes()[o]).sum();
          if (oldUsed > tenuredBytes) {
            return new Result(null, true);
          }
          collections.add(GcObservation.full(edenUsed, capacityBytes, oldUsed, tenuredBytes,
              5 + 10.0 * tenuredBytes / (1L << 30)));
        }
        eden.clear();
        edenUsed = 0;
        edenSize = effectiveEden.getAsLong();
      }
      eden.add(i);
      edenUsed += trace.sizes()[i];
      at += trace.sizes()[i];
    }
    double gcMs = collections.stream().mapToDouble(GcObservation::pauseMs).sum();
    return new Result(new GcRun(collections, NON_GC_MS + gcMs), false);
  }

  private static long liveBytes(Trace trace, List<Integer> objects, long at) {
    return objects.stream().filter(o -> trace.deaths()[o] > at).mapToLong(o -> trace.sizes()[o]).sum();
  }

  private static void keepLive(Trace trace, List<Integer> eden, long at, List<Integer> tenured) {
    eden.stream().filter(o -> trace.deaths()[o] > at).forEach(tenured::add);
  }
}
