package org.perflab.costmodel;

import java.util.Locale;
import org.perflab.errors.BadInputException;
import org.perflab.eventlog.SparkVersion;

/** The values of {@code spark.io.compression.codec}; Spark ≥ 2 defaults to {@link #LZ4}, earlier to {@link #SNAPPY}. */
public enum Codec {
  LZ4, LZF, SNAPPY, ZSTD;

  /** The first version whose default is {@link #LZ4}, as {@link SparkVersion#minor}: 2.0 (SPARK-12388). */
  public static final int LZ4_DEFAULT_SINCE = 200;

  /** Spark's default codec under {@code sparkVersion}: snappy before 2.0, else (unknown too) lz4. */
  public static Codec defaultFor(String sparkVersion) {
    int version = SparkVersion.minor(sparkVersion);
    return version >= 0 && version < LZ4_DEFAULT_SINCE ? SNAPPY : LZ4;
  }

  /** Spark's short name of the codec ({@code lz4}), as the property and PerfLab's tables write it. */
  public String shortName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The codec named by a Spark property value (short name or the codec class), case-insensitive. */
  public static Codec parse(String value) {
    String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
    for (Codec c : values()) {
      String name = c.shortName();
      if (v.equals(name) || v.endsWith("." + name + "compressioncodec")) {
        return c;
      }
    }
    throw new BadInputException("Cannot parse spark.io.compression.codec: unknown codec (" + value
        + "; one of lz4, lzf, snappy, zstd)");
  }
}
