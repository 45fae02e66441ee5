package org.perflab.eventlog.source;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.Locale;
import java.util.Optional;
import org.apache.spark.SparkConf;
import org.apache.spark.io.CompressionCodec;

/**
 * The compression of an event log, with Spark's own framing: streams are made by Spark's {@link CompressionCodec}.
 */
public enum LogCompression {
  NONE(""),
  LZ4("lz4"),
  LZF("lzf"),
  SNAPPY("snappy"),
  ZSTD("zstd");

  /** The supported suffixes, for messages. */
  public static final String SUPPORTED = "lz4, lzf, snappy, zstd";

  private final String shortName;

  LogCompression(String shortName) {
    this.shortName = shortName;
  }

  /** Spark's short name ({@code spark.io.compression.codec}), empty for {@link #NONE}. */
  public String shortName() {
    return shortName;
  }

  /** The file-name suffix Spark appends, such as {@code ".zstd"}; empty for {@link #NONE}. */
  public String suffix() {
    return this == NONE ? "" : "." + shortName;
  }

  /** The codec whose short name is {@code name} (any case), if Spark has one. */
  public static Optional<LogCompression> fromShortName(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    for (LogCompression codec : values()) {
      if (codec != NONE && codec.shortName.equals(lower)) {
        return Optional.of(codec);
      }
    }
    return Optional.empty();
  }

  /**
   * The codec named by a Spark 1.x {@code COMPRESSION_CODEC_<name>} marker: a short name or a class name such as
   * {@code org.apache.spark.io.LZFCompressionCodec}.
   */
  public static Optional<LogCompression> fromLegacyName(String name) {
    String simple = name.substring(name.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
    String stem = simple.endsWith("compressioncodec") ? simple.substring(0, simple.length() - 16) : simple;
    return fromShortName(stem);
  }

  /** Wraps {@code in} in Spark's decompressing stream for this codec; {@code in} itself for {@link #NONE}. */
  public InputStream decompress(InputStream in) {
    // Continuous, as Spark's EventLogFileReader reads: a zstd log still being written ends cleanly.
    return this == NONE ? in : sparkCodec().compressedContinuousInputStream(in);
  }

  /** Wraps {@code out} in Spark's compressing stream for this codec; {@code out} itself for {@link #NONE}. */
  public OutputStream compress(OutputStream out) {
    return this == NONE ? out : sparkCodec().compressedOutputStream(out);
  }

  private CompressionCodec sparkCodec() {
    return CompressionCodec.createCodec(new SparkConf(false), shortName);
  }
}
