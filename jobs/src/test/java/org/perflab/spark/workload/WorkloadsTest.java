package org.perflab.spark.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import scala.Tuple2;

/** Every workload at tiny scale on real Spark: prepare, run, and check the output's shape and values. */
class WorkloadsTest {
  private static final int PARTITIONS = 2;
  private static SparkSession spark;
  private static PreparedData data;

  @TempDir static Path dataDir;

  @BeforeAll
  static void startSpark() {
    spark = SparkSession.builder()
        .master("local[2]")
        .appName("WorkloadsTest")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "2")
        .getOrCreate();
    data = new PreparedData(new DataFiles(spark.sparkContext().hadoopConfiguration()));
  }

  @AfterAll
  static void stopSpark() {
    spark.stop();
  }

  private static WorkloadSpec spec(HiBenchWorkload workload) {
    return spec(workload, 0);
  }

  /** Tiny data; {@code iterations} below the defaults keeps the iterative workloads quick. */
  private static WorkloadSpec spec(HiBenchWorkload workload, int iterations) {
    return new WorkloadSpec(workload, Scale.TINY, dataDir.toUri().toString(), PARTITIONS, 42L, iterations,
        SleepSpec.deterministic(4, 2, 100));
  }

  private static WorkloadResult prepareAndRun(WorkloadSpec spec) {
    if (!data.isPrepared(spec)) {
      data.prepare(spark, spec);
    }
    data.clearOutput(spec);
    return spec.workload().runner().run(spark, spec);
  }

  /** Lines of a text output directory, part files in name order. */
  private static List<String> textLines(String dir) {
    try (Stream<Path> parts = Files.list(Path.of(java.net.URI.create(dir)))) {
      List<String> lines = new ArrayList<>();
      for (Path part : parts.filter(p -> p.getFileName().toString().startsWith("part-")).sorted().toList()) {
        lines.addAll(Files.readAllLines(part));
      }
      return lines;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void sortWritesEveryInputLineInOrder() {
    WorkloadSpec spec = spec(HiBenchWorkload.SORT);
    WorkloadResult result = prepareAndRun(spec);
    List<String> input = textLines(spec.inputDir());
    List<String> output = textLines(spec.outputDir());
    assertThat(output).hasSize(input.size()).isSorted();
    assertThat(output).containsExactlyInAnyOrderElementsOf(input);
    assertThat(result.outputRecords()).isEqualTo(input.size());
    assertThat(data.inputBytes(spec)).as("tiny text is about 32 KB").isBetween(30_000L, 40_000L);
  }

  @Test
  void wordCountCountsEveryWord() {
    WorkloadSpec spec = spec(HiBenchWorkload.WORDCOUNT);
    prepareAndRun(spec);
    Map<String, Long> expected = textLines(spec.inputDir()).stream()
        .flatMap(line -> Arrays.stream(line.split(" ")))
        .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
    Map<String, Long> counted = new HashMap<>();
    for (String line : textLines(spec.outputDir())) {
      String[] parts = line.split("\t");
      counted.put(parts[0], Long.parseLong(parts[1]));
    }
    assertThat(counted).isEqualTo(expected);
  }

  @Test
  void teraSortOrdersRowsByTheirTenCharacterKey() {
    WorkloadSpec spec = spec(HiBenchWorkload.TERASORT);
    prepareAndRun(spec);
    List<String> keys = textLines(spec.outputDir()).stream()
        .map(line -> line.substring(0, TeraSortWorkload.KEY_LENGTH)).toList();
    assertThat(keys).hasSize((int) TeraSortWorkload.ROWS.at(Scale.TINY)).isSorted();
    assertThat(textLines(spec.inputDir())).allSatisfy(row -> assertThat(row).hasSize(99));
  }

  @Test
  void repartitionKeepsEveryLineInTheRequestedPartitions() throws IOException {
    WorkloadSpec spec = spec(HiBenchWorkload.REPARTITION);
    prepareAndRun(spec);
    assertThat(textLines(spec.outputDir())).containsExactlyInAnyOrderElementsOf(textLines(spec.inputDir()));
    try (Stream<Path> parts = Files.list(Path.of(java.net.URI.create(spec.outputDir())))) {
      assertThat(parts.filter(p -> p.getFileName().toString().startsWith("part-")).count()).isEqualTo(PARTITIONS);
    }
  }

  @Test
  void grepCountsTheLinesWithARepeatedWordInFilesOfAFixedSize() throws IOException {
    WorkloadSpec spec = spec(HiBenchWorkload.GREP);
    WorkloadResult result = prepareAndRun(spec);
    java.util.regex.Pattern repeated = java.util.regex.Pattern.compile("\\b(\\w+)\\b.*\\b\\1\\b");
    List<String> input = textLines(spec.inputDir());
    long expected = input.stream().filter(line -> repeated.matcher(line).find()).count();
    assertThat(expected).isPositive().isLessThan(input.size());
    assertThat(result.outputRecords()).isEqualTo(expected);
    // Two files of about 64 KB: the input is the partitions times the scale's file size.
    assertThat(data.inputBytes(spec)).isBetween(2 * 60_000L, 2 * 70_000L);
    try (Stream<Path> parts = Files.list(Path.of(java.net.URI.create(spec.inputDir())))) {
      assertThat(parts.filter(p -> p.getFileName().toString().startsWith("part-")).count()).isEqualTo(PARTITIONS);
    }
  }

  @Test
  void sleepRunsEveryTaskOfEveryStageForItsDuration() {
    WorkloadSpec spec = spec(HiBenchWorkload.SLEEP);
    long start = System.nanoTime();
    WorkloadResult result = prepareAndRun(spec);
    long elapsedMs = (System.nanoTime() - start) / 1_000_000;
    assertThat(result.outputRecords()).as("one record per task of the last stage").isEqualTo(4);
    assertThat(result.detail()).isEqualTo("tasks=8");
    assertThat(elapsedMs).as("2 stages x ceil(4 tasks / 2 slots) waves x 100 ms").isGreaterThanOrEqualTo(400);
  }

  @Test
  void sleepDurationsFollowTheirDistribution() {
    SleepSpec uniform = new SleepSpec(1000, 1, SleepDistribution.UNIFORM, 150, 100, 200, 0);
    SleepSpec exponential = new SleepSpec(1000, 1, SleepDistribution.EXPONENTIAL, 100, 0, 0, 0);
    double uniformMean = 0;
    double exponentialMean = 0;
    for (int task = 0; task < 1000; task++) {
      long u = uniform.durationMs(7, 0, task);
      assertThat(u).isBetween(100L, 200L);
      assertThat(uniform.durationMs(7, 0, task)).as("same duration on retry").isEqualTo(u);
      uniformMean += u / 1000.0;
      exponentialMean += exponential.durationMs(7, 0, task) / 1000.0;
    }
    assertThat(uniformMean).isCloseTo(150, within(5.0));
    assertThat(exponentialMean).isCloseTo(100, within(10.0));
    assertThat(SleepSpec.deterministic(3, 1, 250).durationMs(1, 0, 2)).isEqualTo(250);
  }

  @Test
  void kMeansFindsTenCentresOfTheRightDimension() {
    WorkloadSpec spec = spec(HiBenchWorkload.KMEANS, 3);
    WorkloadResult result = prepareAndRun(spec);
    assertThat(result.outputRecords()).isEqualTo(KMeansWorkload.K);
    assertThat(spark.read().parquet(spec.outputDir()).count()).isEqualTo(KMeansWorkload.SAMPLES.at(Scale.TINY));
    double cost = Double.parseDouble(result.detail().substring("cost=".length()));
    assertThat(cost).as("samples have unit variance around 5 centres: cost about samples x dims or less")
        .isBetween(0.0, 2.0 * 30_000 * 3);
  }

  @Test
  void svmSeparatesTheGeneratedClasses() {
    WorkloadSpec spec = spec(HiBenchWorkload.SVM, 8);
    WorkloadResult result = prepareAndRun(spec);
    assertThat(result.outputRecords()).isEqualTo(SvmWorkload.EXAMPLES.at(Scale.TINY));
    double accuracy = Double.parseDouble(result.detail().substring("accuracy=".length()));
    assertThat(accuracy).as("5% label noise").isGreaterThan(0.8);
  }

  @Test
  void pageRankMatchesOneIterationByHand() {
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    JavaPairRDD<String, String> edges = jsc.parallelizePairs(List.of(
        new Tuple2<>("a", "b"), new Tuple2<>("b", "a"), new Tuple2<>("a", "c"), new Tuple2<>("c", "a")));
    Map<String, Double> ranks = PageRankWorkload.rank(edges, 1, 2).collectAsMap();
    // a sends 1/2 to b and c; b and c send 1 each to a.
    assertThat(ranks.get("a")).isCloseTo(0.15 + 0.85 * 2, within(1e-9));
    assertThat(ranks.get("b")).isCloseTo(0.15 + 0.85 * 0.5, within(1e-9));
    assertThat(ranks.get("c")).isCloseTo(0.15 + 0.85 * 0.5, within(1e-9));
  }

  @Test
  void pageRankRanksGeneratedPages() {
    WorkloadSpec spec = spec(HiBenchWorkload.PAGERANK);
    WorkloadResult result = prepareAndRun(spec);
    List<String> lines = textLines(spec.outputDir());
    assertThat(lines).hasSize((int) result.outputRecords());
    assertThat(result.outputRecords()).isBetween(1L, PageRankWorkload.PAGES.at(Scale.TINY));
    assertThat(lines).allSatisfy(line -> assertThat(Double.parseDouble(line.split("\t")[1]))
        .isGreaterThanOrEqualTo(1 - PageRankWorkload.DAMPING));
  }

  @Test
  void nWeightSumsPathWeightProductsAndKeepsTheHeaviest() {
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    JavaPairRDD<Long, Tuple2<Long, Double>> edges = jsc.parallelizePairs(List.of(
        edge(0, 1, 0.5), edge(1, 2, 0.4), edge(0, 3, 1.0), edge(3, 2, 0.2), edge(1, 4, 1.0)));
    Map<Tuple2<Long, Long>, Double> twoHops = NWeightWorkload.associations(edges, 2, 30, 2).collectAsMap();
    assertThat(twoHops.get(new Tuple2<>(0L, 2L))).isCloseTo(0.5 * 0.4 + 1.0 * 0.2, within(1e-9));
    assertThat(twoHops.get(new Tuple2<>(0L, 4L))).isCloseTo(0.5, within(1e-9));
    assertThat(twoHops).hasSize(2);
    // Keeping 1 after each hop: 0 keeps 0->3 (1.0) over 0->1 (0.5), so its only 2-hop association is 3->2.
    Map<Tuple2<Long, Long>, Double> heaviest = NWeightWorkload.associations(edges, 2, 1, 2).collectAsMap();
    assertThat(heaviest).containsOnlyKeys(new Tuple2<>(0L, 2L));
    assertThat(heaviest.get(new Tuple2<>(0L, 2L))).isCloseTo(1.0 * 0.2, within(1e-9));
  }

  private static Tuple2<Long, Tuple2<Long, Double>> edge(long from, long to, double weight) {
    return new Tuple2<>(from, new Tuple2<>(to, weight));
  }

  @Test
  void nWeightKeepsAtMostThirtyAssociationsPerVertex() {
    WorkloadSpec spec = spec(HiBenchWorkload.NWEIGHT, 2);
    prepareAndRun(spec);
    Map<String, Long> perSource = textLines(spec.outputDir()).stream()
        .collect(Collectors.groupingBy(line -> line.split("\t")[0], Collectors.counting()));
    assertThat(perSource).isNotEmpty();
    assertThat(perSource.values()).allSatisfy(n -> assertThat(n).isBetween(1L, (long) NWeightWorkload.MAX_OUT_EDGES));
  }

  @Test
  void sqlScanCopiesEveryVisit() {
    WorkloadSpec spec = spec(HiBenchWorkload.SCAN);
    WorkloadResult result = prepareAndRun(spec);
    assertThat(result.outputRecords()).isEqualTo(SqlWorkload.USERVISITS.at(Scale.TINY));
  }

  @Test
  void sqlAggregationSumsRevenuePerSourceIp() {
    WorkloadSpec spec = spec(HiBenchWorkload.AGGREGATION);
    WorkloadResult result = prepareAndRun(spec);
    Row expected = spark.read().parquet(spec.inputDir() + "/uservisits")
        .selectExpr("count(distinct sourceIP)", "sum(adRevenue)").first();
    Row actual = spark.read().parquet(spec.outputDir()).selectExpr("count(*)", "sum(sumAdRevenue)").first();
    assertThat(result.outputRecords()).isEqualTo(expected.getLong(0)).isEqualTo(actual.getLong(0));
    assertThat(actual.getDouble(1)).isCloseTo(expected.getDouble(1), within(1e-6));
  }

  @Test
  void sqlJoinRanksSourceIpsByRevenueFrom1999() {
    WorkloadSpec spec = spec(HiBenchWorkload.JOIN);
    WorkloadResult result = prepareAndRun(spec);
    List<Row> rows = spark.read().parquet(spec.outputDir()).collectAsList();
    long ips1999 = spark.read().parquet(spec.inputDir() + "/uservisits")
        .where("visitDate >= '1999-01-01' AND visitDate <= '2000-01-01'")
        .select("sourceIP").distinct().count();
    assertThat(result.outputRecords()).isEqualTo(rows.size()).isEqualTo(ips1999);
    assertThat(rows).allSatisfy(row -> assertThat(row.getDouble(1)).isBetween(1.0, 100.0));
  }
}
