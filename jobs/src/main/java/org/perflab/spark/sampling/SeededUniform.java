package org.perflab.spark.sampling;

import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.xxhash64;

import org.apache.spark.sql.Column;

/**
 * A deterministic pseudo-random number per row for seeded sampling in Spark: the low 53 bits of a seeded
 * {@code xxhash64} of the key columns, divided by 2^53, so uniform in [0, 1), the same for the same keys and seed
 * whatever the partitioning or the order of the rows.
 */
public final class SeededUniform {
  /** 2^53: the values a double holds exactly. */
  private static final double UNIT = 9007199254740992.0;

  private SeededUniform() {}

  /** The uniform [0, 1) value of each row's {@code keys} under {@code seed}. */
  public static Column of(long seed, Column... keys) {
    Column[] hashed = new Column[keys.length + 1];
    hashed[0] = lit(seed);
    System.arraycopy(keys, 0, hashed, 1, keys.length);
    return xxhash64(hashed).bitwiseAND(lit((1L << 53) - 1)).divide(lit(UNIT));
  }
}
