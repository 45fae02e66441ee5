package org.perflab.costmodel;

import java.io.Serializable;
import java.util.EnumMap;
import java.util.Map;
import org.perflab.errors.BadInputException;

/**
 * Everything the model needs besides a stage's data statistics: the codec- and serializer-independent costs, and the
 * statistics of each codec and serializer that the configuration can select (reference §2.1).
 *
 * @param costs per-byte and per-record costs
 * @param codecs statistics per codec (at least the configured one)
 * @param serializers statistics per serializer (at least the configured one)
 */
public record ClusterStats(CostStats costs, Map<Codec, CodecCosts> codecs, Map<SerializerKind, SerializerCosts> serializers)
    implements Serializable {

  public ClusterStats {
    codecs = Map.copyOf(codecs);
    serializers = Map.copyOf(serializers);
  }

  /** The statistics of {@code codec}; bad input when the table has none. */
  public CodecCosts codec(Codec codec) {
    CodecCosts c = codecs.get(codec);
    BadInputException.require(c != null, "Cannot model codec %s: no statistics for it (known: %s)", codec,
        codecs.keySet());
    return c;
  }

  /** The statistics of {@code serializer}; bad input when the table has none. */
  public SerializerCosts serializer(SerializerKind serializer) {
    SerializerCosts s = serializers.get(serializer);
    BadInputException.require(s != null, "Cannot model serializer %s: no statistics for it (known: %s)", serializer,
        serializers.keySet());
    return s;
  }

  /**
   * Statistics fitted on a run in on-disk bytes (its codec at ratio 1 and no CPU, its serializer's ratio the on-disk ÷
   * in-memory bytes, the codec and serializer CPU inside the fitted local write and read costs, as
   * {@link PhaseCostInputs} builds them) moved from the run's codec and serializer ({@code source}'s) to {@code codec}
   * and {@code serializer} by the measured table's ratios: on-disk bytes × the bytes ratio (in-memory bytes do not
   * change), and per record, the write × the write ratio and the local read × the read ratio. The local write cost
   * per on-disk byte is therefore × write ÷ bytes, the local read cost × read ÷ bytes. The network cost stays: it is
   * also eq. (45)'s result cost (Func), which no codec touches, and a fitted run stands it in for the local read only
   * when it fetched nothing remotely. The new codec takes
   * the run codec's statistics, the new serializer the run serializer's with its ratio × the bytes ratio. Bad input
   * when the table lacks either setting.
   */
  public ClusterStats rebased(CostConfig source, Codec codec, SerializerKind serializer, CodecCostTable table) {
    CodecCostTable.Relative r = table.relative(source.codec(), source.serializer(), codec, serializer);
    SerializerCosts ser = serializer(source.serializer());
    return new ClusterStats(costs.withShuffleIoScaled(r.writePerRecord() / r.bytes(), r.readPerRecord() / r.bytes(),
            1),
        Map.of(codec, codec(source.codec())),
        Map.of(serializer, new SerializerCosts(ser.serializeRatio() * r.bytes(), ser.serdeNsPerByte())));
  }

  /** The same statistics with {@code codec}'s entry set. */
  public ClusterStats withCodec(Codec codec, CodecCosts c) {
    Map<Codec, CodecCosts> m = new EnumMap<>(Codec.class);
    m.putAll(codecs);
    m.put(codec, c);
    return new ClusterStats(costs, m, serializers);
  }

  /** The same statistics with {@code serializer}'s entry set. */
  public ClusterStats withSerializer(SerializerKind serializer, SerializerCosts s) {
    Map<SerializerKind, SerializerCosts> m = new EnumMap<>(SerializerKind.class);
    m.putAll(serializers);
    m.put(serializer, s);
    return new ClusterStats(costs, codecs, m);
  }
}
