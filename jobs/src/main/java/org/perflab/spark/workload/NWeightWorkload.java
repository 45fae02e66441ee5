package org.perflab.spark.workload;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import scala.Tuple2;

/**
 * HiBench NWeight: for every vertex, the vertices exactly {@link #HOPS} hops away, weighted by the sum over paths of
 * the product of edge weights, keeping the {@link #MAX_OUT_EDGES} heaviest after each hop. Input lines are
 * {@code source<TAB>target<TAB>weight}; output lines {@code source<TAB>target<TAB>weight}.
 */
final class NWeightWorkload implements WorkloadRunner {
  /** Edges per scale. */
  static final ScaleTable EDGES = ScaleTable.of(10_000, 100_000, 500_000, 1_000_000, 2_000_000, 4_000_000);
  /** Average out-degree of the generated graph. */
  static final int AVERAGE_DEGREE = 10;
  /** Hops ({@code hibench.nweight.degree}). */
  static final int HOPS = 3;
  /** Associations kept per vertex after each hop ({@code hibench.nweight.max_out_edges}). */
  static final int MAX_OUT_EDGES = 30;

  @Override
  public void prepare(SparkSession spark, WorkloadSpec spec) {
    long vertices = Math.max(2, EDGES.at(spec.scale()) / AVERAGE_DEGREE);
    Generators.generate(spark, EDGES.at(spec.scale()), spec.partitions(), spec.seed(),
            (random, index) -> edge(random, vertices))
        .saveAsTextFile(spec.inputDir());
  }

  @Override
  public WorkloadResult run(SparkSession spark, WorkloadSpec spec) {
    int hops = spec.iterationsOr(HOPS);
    JavaPairRDD<Long, Tuple2<Long, Double>> edges = JavaSparkContext.fromSparkContext(spark.sparkContext())
        .textFile(spec.inputDir(), spec.partitions())
        .mapToPair(line -> {
          String[] parts = line.split("\t");
          return new Tuple2<>(Long.parseLong(parts[0]),
              new Tuple2<>(Long.parseLong(parts[1]), Double.parseDouble(parts[2])));
        });
    JavaPairRDD<Tuple2<Long, Long>, Double> weights = associations(edges, hops, MAX_OUT_EDGES, spec.partitions());
    weights.map(pair -> pair._1()._1() + "\t" + pair._1()._2() + "\t" + pair._2()).saveAsTextFile(spec.outputDir());
    return new WorkloadResult(HiBenchWorkload.NWEIGHT, weights.count(), "hops=" + hops);
  }

  /**
   * The {@code hops}-hop associations of {@code edges} (source → (target, weight)): (source, target) → sum over
   * paths of the product of weights, the {@code keep} heaviest per source after each hop.
   */
  static JavaPairRDD<Tuple2<Long, Long>, Double> associations(
      JavaPairRDD<Long, Tuple2<Long, Double>> edges, int hops, int keep, int partitions) {
    JavaPairRDD<Long, Tuple2<Long, Double>> cachedEdges = edges.cache();
    JavaPairRDD<Tuple2<Long, Long>, Double> paths =
        topPerSource(cachedEdges.mapToPair(e -> new Tuple2<>(new Tuple2<>(e._1(), e._2()._1()), e._2()._2()))
            .reduceByKey(Double::sum, partitions), keep, partitions);
    for (int hop = 2; hop <= hops; hop++) {
      JavaPairRDD<Tuple2<Long, Long>, Double> extended = paths
          .mapToPair(p -> new Tuple2<>(p._1()._2(), new Tuple2<>(p._1()._1(), p._2())))
          .join(cachedEdges, partitions)
          .mapToPair(j -> new Tuple2<>(new Tuple2<>(j._2()._1()._1(), j._2()._2()._1()),
              j._2()._1()._2() * j._2()._2()._2()))
          .reduceByKey(Double::sum, partitions);
      paths = topPerSource(extended, keep, partitions);
    }
    return paths;
  }

  private static JavaPairRDD<Tuple2<Long, Long>, Double> topPerSource(
      JavaPairRDD<Tuple2<Long, Long>, Double> paths, int keep, int partitions) {
    return paths
        .mapToPair(p -> new Tuple2<>(p._1()._1(), new Tuple2<>(p._1()._2(), p._2())))
        .groupByKey(partitions)
        .flatMapToPair(group -> {
          List<Tuple2<Long, Double>> targets = new ArrayList<>();
          group._2().forEach(targets::add);
          targets.sort(Comparator.comparing((Tuple2<Long, Double> t) -> t._2()).reversed()
              .thenComparing(Tuple2::_1));
          List<Tuple2<Tuple2<Long, Long>, Double>> kept = new ArrayList<>();
          for (Tuple2<Long, Double> target : targets.subList(0, Math.min(keep, targets.size()))) {
            kept.add(new Tuple2<>(new Tuple2<>(group._1(), target._1()), target._2()));
          }
          return kept.iterator();
        });
  }

  private static String edge(Random random, long vertices) {
    long source = random.nextLong(vertices);
    long target = Generators.skewed(random, vertices);
    double weight = Math.round((0.01 + 0.99 * random.nextDouble()) * 1000) / 1000.0;
    return source + "\t" + target + "\t" + weight;
  }
}
