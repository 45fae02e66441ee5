package org.perflab.memory.gc;

import java.util.List;
import org.perflab.errors.BadInputException;

/**
 * The collections of one JVM (one executor) over one run, in the order they happened, and how long it ran.
 *
 * @param collections the JVM's collections, oldest first
 * @param runtimeMs the JVM's wall time over the run, milliseconds (GC pauses included); the GC model's non-GC runtime
 *     is this minus the pauses
 */
public record GcRun(List<GcObservation> collections, double runtimeMs) {
  public GcRun {
    BadInputException.require(collections != null, "Cannot build a GC run: its collections are missing");
    BadInputException.require(Double.isFinite(runtimeMs) && runtimeMs >= 0,
        "Cannot build a GC run: its runtime is not a finite non-negative time (%s ms)", runtimeMs);
    collections = List.copyOf(collections);
  }

  /** The total pause time of all collections, milliseconds. */
  public double gcMs() {
    return collections.stream().mapToDouble(GcObservation::pauseMs).sum();
  }

  /** The total bytes allocated, A of reference §2.8.4: the pre-collection eden occupancies summed (short of the allocation after the last collection). */
  public long allocatedBytes() {
    return collections.stream().mapToLong(GcObservation::allocatedBytes).sum();
  }

  /** The number of collections of one kind. */
  public long count(GcObservation.Kind kind) {
    return collections.stream().filter(c -> c.kind() == kind).count();
  }
}
