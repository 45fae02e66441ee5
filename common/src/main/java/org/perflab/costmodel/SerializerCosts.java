package org.perflab.costmodel;

import java.io.Serializable;
import org.perflab.errors.BadInputException;

/**
 * A serializer's statistics (reference §2.1: pSerializer selects them).
 *
 * @param serializeRatio dsSerializeRatio, serialized ÷ in-memory bytes (> 0)
 * @param serdeNsPerByte csSerdeBytesCPUCost (= csSerializeCPUCost), ns per byte (≥ 0); charged per in-memory byte
 *     when writing and per serialized byte when reading, literally as eqs. (3) and (5) do (reference E10)
 */
public record SerializerCosts(double serializeRatio, double serdeNsPerByte) implements Serializable {

  public SerializerCosts {
    BadInputException.require(serializeRatio > 0 && Double.isFinite(serializeRatio),
        "Cannot use serializer statistics: serialize ratio not positive (%s; > 0)", serializeRatio);
    BadInputException.require(serdeNsPerByte >= 0,
        "Cannot use serializer statistics: negative cost (%s ns/byte; ≥ 0)", serdeNsPerByte);
  }
}
