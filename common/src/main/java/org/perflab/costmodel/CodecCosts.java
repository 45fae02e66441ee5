package org.perflab.costmodel;

import java.io.Serializable;
import org.perflab.errors.BadInputException;

/**
 * A codec's statistics (reference §2.1: pCompressor selects them).
 *
 * @param compressRatio dsIntermCompressRatio, compressed ÷ uncompressed bytes, in (0, 1]
 * @param compressNsPerByte csIntermComCPUCost, ns per serialized byte compressed (≥ 0)
 * @param uncompressNsPerByte csIntermUncomCPUCost, ns per compressed byte decompressed (≥ 0)
 */
public record CodecCosts(double compressRatio, double compressNsPerByte, double uncompressNsPerByte)
    implements Serializable {

  /** No compression: ratio 1 and no CPU, as eqs. (2) and (4) set when the flag is off. */
  public static final CodecCosts NONE = new CodecCosts(1, 0, 0);

  public CodecCosts {
    BadInputException.require(compressRatio > 0 && compressRatio <= 1,
        "Cannot use codec statistics: compression ratio out of range (%s; (0, 1])", compressRatio);
    BadInputException.require(compressNsPerByte >= 0 && uncompressNsPerByte >= 0,
        "Cannot use codec statistics: negative cost (%s, %s ns/byte; ≥ 0)", compressNsPerByte, uncompressNsPerByte);
  }
}
