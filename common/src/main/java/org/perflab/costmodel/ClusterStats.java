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
