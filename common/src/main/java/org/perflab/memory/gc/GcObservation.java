package org.perflab.memory.gc;

import org.perflab.errors.BadInputException;

/**
 * One garbage collection of one JVM, as the GC model reads it (reference 004 §2.8.3).
 *
 * @param kind a young (eden) collection or a full collection
 * @param edenBeforeBytes eden occupancy just before the collection, bytes: the allocation since the previous
 *     collection, and the effective eden size of a young collection
 * @param edenCapacityBytes eden capacity (committed) at the collection, bytes
 * @param promotedBytes bytes copied from eden into tenured by a young collection (old-generation occupancy after minus
 *     before, never negative); 0 for a full collection
 * @param oldAfterBytes old-generation occupancy after the collection, bytes; after a full collection, the live bytes
 * @param tenuredCapacityBytes old-generation capacity (committed) at the collection, bytes
 * @param pauseMs the collection's duration, milliseconds
 */
public record GcObservation(Kind kind, long edenBeforeBytes, long edenCapacityBytes, long promotedBytes,
    long oldAfterBytes, long tenuredCapacityBytes, double pauseMs) {

  /** The generational kind of a collection. */
  public enum Kind {
    /** An eden (minor) collection: live eden objects are promoted. */
    YOUNG,
    /** A full (major) collection: everything is marked and compacted into tenured. */
    FULL
  }

  public GcObservation {
    BadInputException.require(kind != null, "Cannot record a collection: its kind is missing (YOUNG or FULL)");
    BadInputException.require(edenBeforeBytes >= 0 && edenCapacityBytes >= 0 && promotedBytes >= 0
            && oldAfterBytes >= 0 && tenuredCapacityBytes >= 0,
        "Cannot record a collection: a size is negative (eden %d/%d, promoted %d, old %d/%d bytes)",
        edenBeforeBytes, edenCapacityBytes, promotedBytes, oldAfterBytes, tenuredCapacityBytes);
    BadInputException.require(Double.isFinite(pauseMs) && pauseMs >= 0,
        "Cannot record a collection: its pause is not a finite non-negative time (%s ms)", pauseMs);
  }

  /** A young collection. */
  public static GcObservation young(long edenBeforeBytes, long edenCapacityBytes, long promotedBytes,
      long oldAfterBytes, long tenuredCapacityBytes, double pauseMs) {
    return new GcObservation(Kind.YOUNG, edenBeforeBytes, edenCapacityBytes, promotedBytes, oldAfterBytes,
        tenuredCapacityBytes, pauseMs);
  }

  /** A full collection that left {@code liveBytes} in tenured. */
  public static GcObservation full(long edenBeforeBytes, long edenCapacityBytes, long liveBytes,
      long tenuredCapacityBytes, double pauseMs) {
    return new GcObservation(Kind.FULL, edenBeforeBytes, edenCapacityBytes, 0, liveBytes, tenuredCapacityBytes,
        pauseMs);
  }

  /**
   * The bytes allocated since the previous collection that this collection accounts for (reference §2.8.4): the
   * pre-collection eden occupancy, of a full collection too (one that ran without an eden collection counts as the
   * eden it emptied; one right after an eden collection adds about nothing). Allocations that bypass eden are not
   * counted.
   */
  public long allocatedBytes() {
    return edenBeforeBytes;
  }
}
