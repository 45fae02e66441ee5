package org.perflab.spark.ingest;

import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.random.RandomGenerator;

/**
 * Ingest run ids, such as {@code 20261125T103000123Z-3f9a1c}: the run's start in UTC to the millisecond, then six
 * random hex digits. Ids sort in start order, so "logs changed since run R" is {@code run_id > 'R'}.
 */
final class RunIds {
  private static final DateTimeFormatter FORMAT =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmssSSS'Z'").withZone(ZoneOffset.UTC);

  private RunIds() {}

  static String next(Clock clock, RandomGenerator random) {
    byte[] suffix = new byte[3];
    for (int i = 0; i < suffix.length; i++) {
      suffix[i] = (byte) random.nextInt(256);
    }
    return FORMAT.format(clock.instant()) + "-" + HexFormat.of().formatHex(suffix);
  }
}
