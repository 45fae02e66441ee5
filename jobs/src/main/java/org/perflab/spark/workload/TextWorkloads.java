package org.perflab.spark.workload;

import java.util.Arrays;
import java.util.Random;
import java.util.regex.Pattern;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import scala.Tuple2;

/**
 * The micro workloads that read random text, as HiBench's RandomTextWriter makes it: Sort, WordCount, Repartition
 * share one data set, sized in bytes by {@link #BYTES}; Grep has its own, {@link Grep#FILE_BYTES} per file.
 */
final class TextWorkloads {
  /** Input size in bytes per scale: tiny 32 KB to bigdata 640 MB. */
  static final ScaleTable BYTES = ScaleTable.of(32_000, 3_200_000, 32_000_000, 128_000_000, 320_000_000, 640_000_000);

  /** Bytes of an average generated line, to turn a byte budget into a line count. */
  private static final int AVERAGE_LINE_BYTES = 64;
  private static final String[] VOCABULARY = vocabulary(2_000, 1L);

  private TextWorkloads() {}

  /** Writes random lines of words drawn, skewed, from a fixed vocabulary: about {@code bytes} bytes in all. */
  static void prepareText(SparkSession spark, WorkloadSpec spec, long bytes) {
    long lines = Math.max(1, bytes / AVERAGE_LINE_BYTES);
    Generators.generate(spark, lines, spec.partitions(), spec.seed(), (random, index) -> line(random))
        .saveAsTextFile(spec.inputDir());
  }

  static JavaRDD<String> readText(SparkSession spark, WorkloadSpec spec) {
    return JavaSparkContext.fromSparkContext(spark.sparkContext()).textFile(spec.inputDir(), spec.partitions());
  }

  private static String line(Random random) {
    int words = 6 + random.nextInt(7);
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < words; i++) {
      line.append(i == 0 ? "" : " ").append(VOCABULARY[(int) Generators.skewed(random, VOCABULARY.length)]);
    }
    return line.toString();
  }

  private static String[] vocabulary(int size, long seed) {
    Random random = new Random(seed);
    String[] words = new String[size];
    for (int i = 0; i < size; i++) {
      char[] letters = new char[3 + random.nextInt(8)];
      for (int j = 0; j < letters.length; j++) {
        letters[j] = (char) ('a' + random.nextInt(26));
      }
      words[i] = new String(letters);
    }
    return words;
  }

  /** Abstract base: the shared prepare step. */
  abstract static class TextWorkload implements WorkloadRunner {
    @Override
    public void prepare(SparkSession spark, WorkloadSpec spec) {
      prepareText(spark, spec, BYTES.at(spec.scale()));
    }
  }

  /**
   * Grep, as in the C3O experiments (not a HiBench workload): counts the lines in which a word occurs twice, a
   * map-only job of one stage. Its input is {@code --partitions} files of {@link #FILE_BYTES} each, so the input grows
   * with the partitions while splits keep one size, as HDFS blocks do: the workload for input-size scaling.
   */
  static final class Grep implements WorkloadRunner {
    /** Bytes of text per input file, per scale: tiny 64 KB to bigdata 128 MB (an HDFS block). */
    static final ScaleTable FILE_BYTES = ScaleTable.of(64_000, 1_000_000, 8_000_000, 32_000_000, 64_000_000,
        128_000_000);
    /** A word that occurs again later in the line; backtracking makes it cost about 4 MB/s per core. */
    private static final Pattern REPEATED_WORD = Pattern.compile("\\b(\\w+)\\b.*\\b\\1\\b");

    @Override
    public void prepare(SparkSession spark, WorkloadSpec spec) {
      prepareText(spark, spec, FILE_BYTES.at(spec.scale()) * spec.partitions());
    }

    @Override
    public WorkloadResult run(SparkSession spark, WorkloadSpec spec) {
      long matches = readText(spark, spec).filter(line -> REPEATED_WORD.matcher(line).find()).count();
      return new WorkloadResult(HiBenchWorkload.GREP, matches, "");
    }
  }

  /** HiBench Sort: sorts the lines of the input, writes them in order. */
  static final class Sort extends TextWorkload {
    @Override
    public WorkloadResult run(SparkSession spark, WorkloadSpec spec) {
      JavaRDD<String> sorted = readText(spark, spec).sortBy(line -> line, true, spec.partitions());
      sorted.saveAsTextFile(spec.outputDir());
      return new WorkloadResult(HiBenchWorkload.SORT, sorted.count(), "");
    }
  }

  /** HiBench WordCount: counts each word, writes {@code word<TAB>count}. */
  static final class WordCount extends TextWorkload {
    @Override
    public WorkloadResult run(SparkSession spark, WorkloadSpec spec) {
      JavaPairRDD<String, Long> counts = readText(spark, spec)
          .flatMap(line -> Arrays.asList(line.split(" ")).iterator())
          .filter(word -> !word.isEmpty())
          .mapToPair(word -> new Tuple2<>(word, 1L))
          .reduceByKey(Long::sum, spec.partitions());
      counts.map(pair -> pair._1() + "\t" + pair._2()).saveAsTextFile(spec.outputDir());
      return new WorkloadResult(HiBenchWorkload.WORDCOUNT, counts.count(), "");
    }
  }

  /** HiBench Repartition: shuffles every line into {@code partitions} partitions and writes them. */
  static final class Repartition extends TextWorkload {
    @Override
    public WorkloadResult run(SparkSession spark, WorkloadSpec spec) {
      JavaRDD<String> shuffled = readText(spark, spec).repartition(spec.partitions());
      shuffled.saveAsTextFile(spec.outputDir());
      return new WorkloadResult(HiBenchWorkload.REPARTITION, shuffled.count(), "");
    }
  }
}
