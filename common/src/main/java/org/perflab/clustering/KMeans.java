package org.perflab.clustering;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.perflab.errors.BadInputException;

/**
 * k-means on points held in memory, for {@code cluster}'s one row per application: k-means++ seeding (Arthur and
 * Vassilvitskii, SODA 2007) then Lloyd's iterations, {@value #RESTARTS} seedings with the lowest within-cluster sum of
 * squares kept, and the squared-Euclidean silhouette that Spark's {@code ClusteringEvaluator} computes. Deterministic in
 * the points' order and the seed. Fitting in the driver replaces one Spark job per seeding step, iteration and
 * silhouette (96 of the 151 jobs of a night's {@code cluster} step over the ten samples) by arithmetic on an array:
 * an archive of 100,000 applications of 13 features is 10 MB.
 */
public final class KMeans {
  /** Lloyd's iterations at most, as Spark's {@code KMeans} default. */
  public static final int MAX_ITERATIONS = 20;
  /** Convergence: every centre moved less than this (Euclidean, in the points' units), as Spark's default. */
  public static final double TOLERANCE = 1e-4;
  /** Seedings tried per k; the lowest within-cluster sum of squares wins (the first on a tie). */
  public static final int RESTARTS = 4;

  private KMeans() {}

  /**
   * A clustering.
   *
   * @param centres the k centres
   * @param assignment each point's centre index (the nearest; the lowest index on a tie)
   * @param cost the within-cluster sum of squared distances
   */
  public record Fit(double[][] centres, int[] assignment, double cost) {}

  /**
   * The best of {@value #RESTARTS} k-means runs on {@code points}.
   *
   * @throws BadInputException when k is below 1 or above the number of points, or the points differ in dimension
   */
  public static Fit fit(double[][] points, int k, long seed) {
    BadInputException.require(k >= 1 && k <= points.length, "Cannot cluster: k must be 1 to %d, the points (%d)",
        points.length, k);
    int dimension = points[0].length;
    BadInputException.require(Arrays.stream(points).allMatch(p -> p.length == dimension),
        "Cannot cluster: every point needs %d coordinates (the first point's)", dimension);
    SplittableRandom random = new SplittableRandom(seed);
    Fit best = null;
    for (int r = 0; r < RESTARTS; r++) {
      Fit fit = lloyd(points, seed(points, k, random.split()));
      if (best == null || fit.cost() < best.cost()) {
        best = fit;
      }
    }
    return best;
  }

  /** k-means++: the first centre uniformly, each next one with probability proportional to D(x)². */
  static double[][] seed(double[][] points, int k, SplittableRandom random) {
    double[][] centres = new double[k][];
    centres[0] = points[random.nextInt(points.length)].clone();
    double[] nearest = new double[points.length];
    Arrays.fill(nearest, Double.POSITIVE_INFINITY);
    for (int c = 1; c < k; c++) {
      double total = 0;
      for (int i = 0; i < points.length; i++) {
        nearest[i] = Math.min(nearest[i], squared(points[i], centres[c - 1]));
        total += nearest[i];
      }
      int chosen = points.length - 1;
      if (total > 0) {
        double target = random.nextDouble() * total;
        double sum = 0;
        for (int i = 0; i < points.length; i++) {
          sum += nearest[i];
          if (sum > target) {
            chosen = i;
            break;
          }
        }
      } else {
        chosen = random.nextInt(points.length);
      }
      centres[c] = points[chosen].clone();
    }
    return centres;
  }

  /** Lloyd's iterations from {@code centres}; an emptied cluster keeps its centre. */
  private static Fit lloyd(double[][] points, double[][] centres) {
    int k = centres.length;
    int dimension = points[0].length;
    int[] assignment = new int[points.length];
    for (int iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
      assign(points, centres, assignment);
      double[][] sums = new double[k][dimension];
      int[] counts = new int[k];
      for (int i = 0; i < points.length; i++) {
        counts[assignment[i]]++;
        for (int d = 0; d < dimension; d++) {
          sums[assignment[i]][d] += points[i][d];
        }
      }
      boolean moved = false;
      for (int c = 0; c < k; c++) {
        if (counts[c] == 0) {
          continue;
        }
        for (int d = 0; d < dimension; d++) {
          sums[c][d] /= counts[c];
        }
        moved |= Math.sqrt(squared(sums[c], centres[c])) > TOLERANCE;
        centres[c] = sums[c];
      }
      if (!moved) {
        break;
      }
    }
    double cost = assign(points, centres, assignment);
    return new Fit(centres, assignment, cost);
  }

  /** Assigns each point to its nearest centre; returns the sum of squared distances. */
  private static double assign(double[][] points, double[][] centres, int[] assignment) {
    double cost = 0;
    for (int i = 0; i < points.length; i++) {
      int best = 0;
      double bestDistance = Double.POSITIVE_INFINITY;
      for (int c = 0; c < centres.length; c++) {
        double distance = squared(points[i], centres[c]);
        if (distance < bestDistance) {
          bestDistance = distance;
          best = c;
        }
      }
      assignment[i] = best;
      cost += bestDistance;
    }
    return cost;
  }

  /**
   * The mean silhouette of {@code assignment} with squared Euclidean distances, as Spark's {@code ClusteringEvaluator}
   * (its default) computes it: a point's a is its mean squared distance to the other points of its cluster, b the
   * lowest mean squared distance to the points of another cluster, its silhouette (b − a) ÷ max(a, b), 0 in a cluster
   * of one. Linear in the points and k, from each cluster's sums.
   */
  public static double silhouette(double[][] points, int[] assignment, int k) {
    int dimension = points[0].length;
    double[][] sums = new double[k][dimension];
    double[] squares = new double[k];
    int[] counts = new int[k];
    for (int i = 0; i < points.length; i++) {
      int c = assignment[i];
      counts[c]++;
      squares[c] += dot(points[i], points[i]);
      for (int d = 0; d < dimension; d++) {
        sums[c][d] += points[i][d];
      }
    }
    double total = 0;
    for (int i = 0; i < points.length; i++) {
      int own = assignment[i];
      if (counts[own] == 1) {
        continue;
      }
      double norm = dot(points[i], points[i]);
      double a = Double.NaN;
      double b = Double.POSITIVE_INFINITY;
      for (int c = 0; c < k; c++) {
        if (counts[c] == 0) {
          continue;
        }
        // Σ over the cluster's points y of |x − y|² = n·|x|² − 2·x·Σy + Σ|y|².
        double sum = counts[c] * norm - 2 * dot(points[i], sums[c]) + squares[c];
        if (c == own) {
          a = sum / (counts[c] - 1);
        } else {
          b = Math.min(b, sum / counts[c]);
        }
      }
      double s = Double.isInfinite(b) ? 0 : (b - a) / Math.max(a, b);
      total += Double.isNaN(s) ? 0 : s;
    }
    return total / points.length;
  }

  private static double squared(double[] a, double[] b) {
    double sum = 0;
    for (int d = 0; d < a.length; d++) {
      double diff = a[d] - b[d];
      sum += diff * diff;
    }
    return sum;
  }

  private static double dot(double[] a, double[] b) {
    double sum = 0;
    for (int d = 0; d < a.length; d++) {
      sum += a[d] * b[d];
    }
    return sum;
  }
}
