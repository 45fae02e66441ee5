package org.perflab.costmodel;

import java.util.Locale;
import org.perflab.errors.BadInputException;

/** The values of {@code spark.io.compression.codec}; Spark ≥ 2 defaults to {@link #LZ4}. */
public enum Codec {
  LZ4, LZF, SNAPPY, ZSTD;

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
