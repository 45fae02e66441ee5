package org.perflab.costmodel;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.perflab.errors.BadInputException;

/**
 * The measured shuffle costs of each codec and serializer, from corpus runs that differ only in
 * {@code spark.io.compression.codec} / {@code spark.serializer} (docs/costmodel.md#codec-and-serializer-costs). The
 * build ships the table as {@link #RESOURCE}; {@code stage-costs --codec-table FILE} writes it.
 */
public final class CodecCostTable implements java.io.Serializable {
  private static final long serialVersionUID = 1L;
  /** The shipped table, on the classpath. */
  public static final String RESOURCE = "/org/perflab/costmodel/codec-costs.csv";
  /** The CSV header. */
  public static final String HEADER = "codec,serializer,runs,shuffle_bytes_per_record,shuffle_write_ns_per_byte,"
      + "shuffle_read_ns_per_byte,bytes_factor,write_factor,read_factor";

  private final List<Entry> entries;

  /**
   * One setting. Factors are relative to the lz4 / Java row (1 there); NaN where a value was not measured.
   *
   * @param codec spark.io.compression.codec
   * @param serializer spark.serializer
   * @param runs applications measured
   * @param bytesPerRecord Σ shuffle bytes written ÷ Σ shuffle records written, bytes/record (on disk)
   * @param writeNsPerByte Σ Spark's Shuffle Write Time ÷ Σ shuffle bytes written, ns/byte
   * @param readNsPerByte Σ executor run time of the tasks that read shuffle ÷ Σ shuffle bytes they read, ns/byte: the
   *     whole reduce task per byte, an upper bound on the read phase's cost
   * @param bytesFactor bytesPerRecord ÷ the lz4 / Java row's: the relative compressed × serialized size
   * @param writeFactor shuffle write ns per record ÷ the lz4 / Java row's
   * @param readFactor shuffle read ns per record ÷ the lz4 / Java row's
   */
  public record Entry(Codec codec, SerializerKind serializer, int runs, double bytesPerRecord, double writeNsPerByte,
      double readNsPerByte, double bytesFactor, double writeFactor, double readFactor) implements java.io.Serializable {

    /** The CSV line. */
    public String csv() {
      return String.join(",", codec.shortName(), serializer.shortName(),
          Integer.toString(runs), num(bytesPerRecord), num(writeNsPerByte), num(readNsPerByte), num(bytesFactor),
          num(writeFactor), num(readFactor));
    }

    private static String num(double v) {
      return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.4f", v);
    }
  }

  public CodecCostTable(List<Entry> entries) {
    this.entries = List.copyOf(entries);
  }

  public List<Entry> entries() {
    return entries;
  }

  /** Tables with the same entries, in the same order, are equal. */
  @Override
  public boolean equals(Object o) {
    return o instanceof CodecCostTable other && entries.equals(other.entries);
  }

  @Override
  public int hashCode() {
    return entries.hashCode();
  }

  /** The entry of a setting, if measured. */
  public Optional<Entry> get(Codec codec, SerializerKind serializer) {
    return entries.stream().filter(e -> e.codec() == codec && e.serializer() == serializer).findFirst();
  }

  /**
   * The shuffle costs of setting {@code to} relative to setting {@code from}, per record: the ratio of the two rows,
   * so that a run measured under {@code from} stays the anchor. Bad input when either setting was not measured.
   */
  public Relative relative(Codec fromCodec, SerializerKind fromSerializer, Codec toCodec,
      SerializerKind toSerializer) {
    Entry from = measured(fromCodec, fromSerializer);
    Entry to = measured(toCodec, toSerializer);
    return new Relative(to.bytesPerRecord() / from.bytesPerRecord(),
        to.writeNsPerByte() * to.bytesPerRecord() / (from.writeNsPerByte() * from.bytesPerRecord()),
        to.readNsPerByte() * to.bytesPerRecord() / (from.readNsPerByte() * from.bytesPerRecord()));
  }

  private Entry measured(Codec codec, SerializerKind serializer) {
    Entry e = get(codec, serializer).orElse(null);
    BadInputException.require(e != null, "Cannot predict codec %s with serializer %s: not in the codec cost table"
        + " (measured: %s)", codec.shortName(), serializer.shortName(), settings());
    BadInputException.require(e.bytesPerRecord() > 0 && e.writeNsPerByte() > 0 && e.readNsPerByte() > 0,
        "Cannot predict codec %s with serializer %s: the codec cost table lacks its byte, write or read cost (%s)",
        codec.shortName(), serializer.shortName(), e.csv());
    return e;
  }

  private String settings() {
    return String.join(", ", entries.stream().map(e -> e.codec().shortName() + "/" + e.serializer().shortName())
        .toList());
  }

  /**
   * One setting relative to another, per record written or read (ratios, 1 for the same setting).
   *
   * @param bytes on-disk shuffle bytes: the relative dsSerializeRatio × dsIntermCompressRatio
   * @param writePerRecord the whole ShuffleWrite's time per record
   * @param readPerRecord the whole ShuffleRead's time per record
   */
  public record Relative(double bytes, double writePerRecord, double readPerRecord) {}

  /** The table the build ships. */
  public static CodecCostTable shipped() {
    try (InputStream in = CodecCostTable.class.getResourceAsStream(RESOURCE)) {
      BadInputException.require(in != null, "Cannot read the codec cost table: not on the classpath (%s)", RESOURCE);
      return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), RESOURCE);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the codec cost table " + RESOURCE, e);
    }
  }

  /** Parses the CSV: {@code #} comment lines, the header, then one line per setting; empty cells are NaN. */
  public static CodecCostTable parse(String text, String source) {
    List<Entry> rows = new ArrayList<>();
    for (String[] f : CsvLines.rows(text, source, HEADER, 9)) {
      rows.add(new Entry(Codec.parse(f[0]), SerializerKind.parse(f[1]), Integer.parseInt(f[2]), num(f[3]),
          num(f[4]), num(f[5]), num(f[6]), num(f[7]), num(f[8])));
    }
    return new CodecCostTable(rows);
  }

  private static double num(String s) {
    return s.isBlank() ? Double.NaN : Double.parseDouble(s);
  }

  /**
   * The table of measured settings: each setting's sums, with factors relative to {@code base}'s (NaN without it).
   *
   * @param sums per setting: runs, Σ shuffle bytes written, Σ records written, Σ shuffle write time (ns),
   *     read ns/byte
   */
  public static CodecCostTable of(List<Sums> sums, Codec baseCodec, SerializerKind baseSerializer) {
    Sums base = sums.stream().filter(s -> s.codec() == baseCodec && s.serializer() == baseSerializer).findFirst()
        .orElse(null);
    List<Entry> out = new ArrayList<>();
    for (Sums s : sums) {
      out.add(new Entry(s.codec(), s.serializer(), s.runs(), s.bytesPerRecord(), s.writeNsPerByte(),
          s.readNsPerByte(), base == null ? Double.NaN : s.bytesPerRecord() / base.bytesPerRecord(),
          base == null ? Double.NaN : s.writeNsPerRecord() / base.writeNsPerRecord(),
          base == null ? Double.NaN : s.readNsPerRecord() / base.readNsPerRecord()));
    }
    return new CodecCostTable(out);
  }

  /**
   * One setting's measurements.
   *
   * @param runs applications
   * @param writtenBytes Σ shuffle bytes written
   * @param writtenRecords Σ shuffle records written
   * @param writeNs Σ Shuffle Write Time, ns
   * @param readNsPerByte run time of the tasks that read shuffle per shuffle byte read, ns/byte (NaN when no task read
   *     shuffle)
   */
  public record Sums(Codec codec, SerializerKind serializer, int runs, double writtenBytes, double writtenRecords,
      double writeNs, double readNsPerByte) {
    double bytesPerRecord() {
      return writtenBytes / writtenRecords;
    }

    double writeNsPerByte() {
      return writeNs / writtenBytes;
    }

    double writeNsPerRecord() {
      return writeNs / writtenRecords;
    }

    double readNsPerRecord() {
      return readNsPerByte * bytesPerRecord();
    }
  }
}
