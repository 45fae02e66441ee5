package org.perflab.spark.workload;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Random;
import java.util.function.Function;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.sql.SparkSession;

/** Building blocks of the data generators: one generator call per partition, each with its own derived seed. */
final class Generators {
  private Generators() {}

  /** An RDD with one element per partition, the partition number, to hang a per-partition generator on. */
  static JavaRDD<Integer> partitionSeeds(SparkSession spark, int partitions) {
    List<Integer> ids = new ArrayList<>();
    for (int i = 0; i < partitions; i++) {
      ids.add(i);
    }
    return JavaSparkContext.fromSparkContext(spark.sparkContext()).parallelize(ids, partitions);
  }

  /** Random for partition {@code partition} of a generator seeded with {@code seed}. */
  static Random random(long seed, int partition) {
    return new Random(mix(seed, 0, partition));
  }

  /**
   * A well-spread seed from three small numbers (SplitMix64's finaliser), so that neighbouring partitions or tasks
   * do not get correlated first draws from {@link Random}.
   */
  static long mix(long seed, long a, long b) {
    long z = seed * 0x9E3779B97F4A7C15L + a * 0xBF58476D1CE4E5B9L + b * 0x94D049BB133111EBL;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** Splits {@code total} items over {@code partitions}: the count of partition {@code partition}. */
  static long share(long total, int partitions, int partition) {
    long base = total / partitions;
    return base + (partition < total % partitions ? 1 : 0);
  }

  /** A generator of {@code count} items, built lazily from a per-item function so memory stays flat. */
  static <T> Iterator<T> items(long count, Function<Long, T> item) {
    return new Iterator<>() {
      private long next;

      @Override
      public boolean hasNext() {
        return next < count;
      }

      @Override
      public T next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return item.apply(next++);
      }
    };
  }

  /** Per-partition generator of {@code total} items in all, e.g. {@code rows(spark, n, p, (random, i) -> ...)}. */
  static <T> JavaRDD<T> generate(SparkSession spark, long total, int partitions, long seed, ItemMaker<T> maker) {
    FlatMapFunction<Integer, T> perPartition = partition -> {
      Random random = random(seed, partition);
      long offset = 0;
      for (int p = 0; p < partition; p++) {
        offset += share(total, partitions, p);
      }
      long first = offset;
      return items(share(total, partitions, partition), i -> maker.make(random, first + i));
    };
    return partitionSeeds(spark, partitions).flatMap(perPartition);
  }

  /** Makes item number {@code index} (0-based, global) with the partition's random. */
  @FunctionalInterface
  interface ItemMaker<T> extends java.io.Serializable {
    T make(Random random, long index);
  }

  /** Zipf-like skewed pick in [0, n): small values are much more likely. */
  static long skewed(Random random, long n) {
    double u = random.nextDouble();
    return Math.min(n - 1, (long) (n * u * u * u));
  }
}
