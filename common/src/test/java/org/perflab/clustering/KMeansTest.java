package org.perflab.clustering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.perflab.errors.BadInputException;

class KMeansTest {
  /** 3 blobs of 20 points, standard deviation 0.1, around (0, 0), (5, 0) and (0, 5); blob of point i is i % 3. */
  private static double[][] blobs(long seed) {
    Random random = new Random(seed);
    double[][] centres = {{0, 0}, {5, 0}, {0, 5}};
    double[][] points = new double[60][];
    for (int i = 0; i < points.length; i++) {
      double[] c = centres[i % 3];
      points[i] = new double[] {c[0] + 0.1 * random.nextGaussian(), c[1] + 0.1 * random.nextGaussian()};
    }
    return points;
  }

  @Test
  void separatedBlobsAreFoundWhateverTheSeedAndTheSameSeedGivesTheSameFit() {
    double[][] points = blobs(7);
    int[] truth = new int[points.length];
    for (int i = 0; i < truth.length; i++) {
      truth[i] = i % 3;
    }
    for (long seed = 1; seed <= 5; seed++) {
      KMeans.Fit fit = KMeans.fit(points, 3, seed);
      assertThat(AdjustedRandIndex.of(java.util.Arrays.stream(truth).boxed().toList(),
          java.util.Arrays.stream(fit.assignment()).boxed().toList())).as("seed %d", seed).isEqualTo(1.0);
      assertThat(fit.cost()).isLessThan(60 * 2 * 0.1 * 0.1 * 2);
    }
    KMeans.Fit once = KMeans.fit(points, 3, 11);
    KMeans.Fit again = KMeans.fit(points, 3, 11);
    assertThat(again.assignment()).isEqualTo(once.assignment());
    assertThat(again.centres()).isDeepEqualTo(once.centres());
  }

  @Test
  void theSilhouetteIsTheMeanOfEachPointsOwnFromPairwiseSquaredDistances() {
    double[][] points = blobs(3);
    int k = 4;
    int[] assignment = KMeans.fit(points, k, 2).assignment();
    // A cluster of one point: give point 0 a cluster of its own.
    assignment[0] = k;
    double expected = 0;
    for (int i = 0; i < points.length; i++) {
      double[] sum = new double[k + 1];
      int[] count = new int[k + 1];
      for (int j = 0; j < points.length; j++) {
        if (j != i) {
          double dx = points[i][0] - points[j][0];
          double dy = points[i][1] - points[j][1];
          sum[assignment[j]] += dx * dx + dy * dy;
          count[assignment[j]]++;
        }
      }
      int own = assignment[i];
      if (count[own] == 0) {
        continue;
      }
      double a = sum[own] / count[own];
      double b = Double.POSITIVE_INFINITY;
      for (int c = 0; c <= k; c++) {
        if (c != own && count[c] > 0) {
          b = Math.min(b, sum[c] / count[c]);
        }
      }
      expected += (b - a) / Math.max(a, b);
    }
    expected /= points.length;
    assertThat(KMeans.silhouette(points, assignment, k + 1)).isCloseTo(expected, within(1e-12));
  }

  @Test
  void kOutsideOneToThePointsIsBadInput() {
    double[][] points = blobs(1);
    assertThatThrownBy(() -> KMeans.fit(points, 0, 1)).isInstanceOf(BadInputException.class)
        .hasMessage("Cannot cluster: k must be 1 to 60, the points (0)");
    assertThat(KMeans.fit(points, 60, 1).cost()).isZero();
  }
}
