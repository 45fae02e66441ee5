package org.perflab.spark.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import scala.Tuple2;

/**
 * HiBench PageRank: a web graph whose link targets follow a Zipf-like law, ranked by the iterative link-vote algorithm
 * (damping 0.85) on RDDs. Input lines are {@code source<TAB>target}; output lines {@code page<TAB>rank}.
 */
final class PageRankWorkload implements WorkloadRunner {
  /** Pages per scale. */
  static final ScaleTable PAGES = ScaleTable.of(50, 5_000, 100_000, 500_000, 1_000_000, 2_000_000);
  /** Iterations per scale (HiBench: 1 at tiny, 3 otherwise). */
  static final ScaleTable ITERATIONS = ScaleTable.of(1, 3, 3, 3, 3, 3);
  static final double DAMPING = 0.85;
  private static final int MAX_OUT_LINKS = 16;

  @Override
  public void prepare(SparkSession spark, WorkloadSpec spec) {
    long pages = PAGES.at(spec.scale());
    Generators.generate(spark, pages, spec.partitions(), spec.seed(), (random, page) -> links(random, page, pages))
        .saveAsTextFile(spec.inputDir());
  }

  @Override
  public WorkloadResult run(SparkSession spark, WorkloadSpec spec) {
    int iterations = spec.iterationsOr((int) ITERATIONS.at(spec.scale()));
    JavaPairRDD<String, Double> ranks = rank(
        JavaSparkContext.fromSparkContext(spark.sparkContext()).textFile(spec.inputDir(), spec.partitions())
            .mapToPair(line -> {
              String[] parts = line.split("\t");
              return new Tuple2<>(parts[0], parts[1]);
            }),
        iterations, spec.partitions());
    ranks.map(pair -> pair._1() + "\t" + pair._2()).saveAsTextFile(spec.outputDir());
    return new WorkloadResult(HiBenchWorkload.PAGERANK, ranks.count(), "iterations=" + iterations);
  }

  /**
   * Ranks the pages of {@code edges} (source, target): each iteration every page sends rank/out-degree to its
   * targets, and a page's new rank is {@code (1 - DAMPING) + DAMPING * received}. Pages with no in-links drop out.
   */
  static JavaPairRDD<String, Double> rank(JavaPairRDD<String, String> edges, int iterations, int partitions) {
    JavaPairRDD<String, Iterable<String>> links = edges.distinct(partitions).groupByKey(partitions).cache();
    JavaPairRDD<String, Double> ranks = links.mapValues(targets -> 1.0);
    for (int i = 0; i < iterations; i++) {
      ranks = links.join(ranks)
          .values()
          .flatMapToPair(pair -> {
            List<Tuple2<String, Double>> votes = new ArrayList<>();
            int outDegree = 0;
            for (String ignored : pair._1()) {
              outDegree++;
            }
            for (String target : pair._1()) {
              votes.add(new Tuple2<>(target, pair._2() / outDegree));
            }
            return votes.iterator();
          })
          .reduceByKey(Double::sum, partitions)
          .mapValues(received -> (1 - DAMPING) + DAMPING * received);
    }
    return ranks;
  }

  /** The out-links of {@code page}, one {@code source<TAB>target} per line, as one text record. */
  private static String links(Random random, long page, long pages) {
    int count = 1 + random.nextInt(MAX_OUT_LINKS);
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < count; i++) {
      lines.append(i == 0 ? "" : "\n").append(page).append('\t').append(Generators.skewed(random, pages));
    }
    return lines.toString();
  }
}
