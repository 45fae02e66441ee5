package org.perflab.spark.workload;

import java.util.Random;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import scala.Tuple2;

/**
 * HiBench TeraSort: 100-byte rows (a 10-character key, a space, an 88-character payload, a newline, as TeraGen's
 * layout), range-partitioned and sorted by key.
 */
final class TeraSortWorkload implements WorkloadRunner {
  /** Rows per scale (100 bytes each): tiny 3.2 MB to bigdata 1 GB. */
  static final ScaleTable ROWS = ScaleTable.of(32_000, 320_000, 1_000_000, 3_200_000, 6_400_000, 10_000_000);
  static final int KEY_LENGTH = 10;
  private static final int PAYLOAD_LENGTH = 88;

  @Override
  public void prepare(SparkSession spark, WorkloadSpec spec) {
    Generators.generate(spark, ROWS.at(spec.scale()), spec.partitions(), spec.seed(), TeraSortWorkload::row)
        .saveAsTextFile(spec.inputDir());
  }

  @Override
  public WorkloadResult run(SparkSession spark, WorkloadSpec spec) {
    JavaPairRDD<String, String> sorted = JavaSparkContext.fromSparkContext(spark.sparkContext())
        .textFile(spec.inputDir(), spec.partitions())
        .mapToPair(line -> new Tuple2<>(line.substring(0, KEY_LENGTH), line))
        .sortByKey(true, spec.partitions());
    sorted.values().saveAsTextFile(spec.outputDir());
    return new WorkloadResult(HiBenchWorkload.TERASORT, sorted.count(), "");
  }

  private static String row(Random random, long index) {
    StringBuilder row = new StringBuilder(KEY_LENGTH + 1 + PAYLOAD_LENGTH);
    for (int i = 0; i < KEY_LENGTH; i++) {
      row.append((char) (' ' + 1 + random.nextInt(94)));
    }
    String id = Long.toString(index);
    row.append(' ').append(id);
    while (row.length() < KEY_LENGTH + 1 + PAYLOAD_LENGTH) {
      row.append((char) ('A' + random.nextInt(26)));
    }
    return row.toString();
  }
}
