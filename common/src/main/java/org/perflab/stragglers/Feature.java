package org.perflab.stragglers;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The per-task features BigRoots tests for every straggler (reference 002 §2.1.2, Table 2, mapped to event-log
 * fields as in §5.1 C1), each with the cause it names and the rule that judges it. The order is the order of the
 * evidence arrays the Spark side builds.
 */
public enum Feature {
  INPUT_BYTES(Cause.DATA_SKEW, Category.NUMERIC),
  INPUT_RECORDS(Cause.DATA_SKEW, Category.NUMERIC),
  SHUFFLE_READ_BYTES(Cause.DATA_SKEW, Category.NUMERIC),
  SHUFFLE_READ_RECORDS(Cause.DATA_SKEW, Category.NUMERIC),
  CPU_TIME(Cause.CPU, Category.NUMERIC),
  GC_TIME(Cause.GC, Category.TIME),
  DESERIALIZE_TIME(Cause.SERIALIZATION, Category.TIME),
  RESULT_SERIALIZATION_TIME(Cause.SERIALIZATION, Category.TIME),
  FETCH_WAIT_TIME(Cause.SHUFFLE_FETCH, Category.TIME),
  SHUFFLE_WRITE_TIME(Cause.SHUFFLE_WRITE, Category.TIME),
  SHUFFLE_WRITE_BYTES(Cause.SHUFFLE_WRITE, Category.NUMERIC),
  MEMORY_SPILLED(Cause.SPILL, Category.NUMERIC),
  DISK_SPILLED(Cause.SPILL, Category.NUMERIC),
  SCHEDULER_DELAY(Cause.SCHEDULER_DELAY, Category.TIME),
  OUTPUT_BYTES(Cause.OUTPUT, Category.NUMERIC),
  OUTPUT_RECORDS(Cause.OUTPUT, Category.NUMERIC),
  HOST_CPU(Cause.RESOURCE_CONTENTION, Category.RESOURCE),
  HOST_IO(Cause.RESOURCE_CONTENTION, Category.RESOURCE),
  HOST_NETWORK(Cause.RESOURCE_CONTENTION, Category.RESOURCE),
  LOCALITY(Cause.LOCALITY, Category.LOCALITY);

  private final Cause cause;
  private final Category category;

  Feature(Cause cause, Category category) {
    this.cause = cause;
    this.category = category;
  }

  public Cause cause() {
    return cause;
  }

  public Category category() {
    return category;
  }

  /** The key of this feature in the {@code features} evidence map, e.g. {@code gc_time}. */
  public String key() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The features of a category, in order. */
  public static List<Feature> of(Category category) {
    return Arrays.stream(values()).filter(f -> f.category == category).toList();
  }
}
