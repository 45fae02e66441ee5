package org.perflab.clustering;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The adjusted Rand index of two partitions of the same items (Hubert and Arabie, 1985): the Rand index corrected for
 * chance, 1 for identical partitions (whatever the labels are called), about 0 for independent ones, negative when
 * they agree less than chance would. With {@code n_ij} the items in class i of the first partition and class j of the
 * second, {@code a_i} and {@code b_j} the class sizes and {@code C(x) = x(x−1)/2}:
 *
 * <pre>
 * ARI = (Σ C(n_ij) − Σ C(a_i) Σ C(b_j) / C(n)) / ((Σ C(a_i) + Σ C(b_j)) / 2 − Σ C(a_i) Σ C(b_j) / C(n))
 * </pre>
 *
 * <p>When the denominator is 0 (both partitions one class, or both all singletons, or fewer than two items) the
 * partitions are identical and the index is 1.
 */
public final class AdjustedRandIndex {
  private AdjustedRandIndex() {}

  /**
   * The adjusted Rand index of two labelings of the same items, {@code first.get(i)} and {@code second.get(i)} being
   * item i's labels; labels are compared with {@code equals}.
   *
   * @throws IllegalArgumentException when the lists differ in length
   */
  public static double of(List<?> first, List<?> second) {
    if (first.size() != second.size()) {
      throw new IllegalArgumentException("Cannot compute the adjusted Rand index: the labelings differ in length ("
          + first.size() + " and " + second.size() + ")");
    }
    Map<Object, Long> firstSizes = new HashMap<>();
    Map<Object, Long> secondSizes = new HashMap<>();
    Map<List<Object>, Long> cells = new HashMap<>();
    for (int i = 0; i < first.size(); i++) {
      firstSizes.merge(first.get(i), 1L, Long::sum);
      secondSizes.merge(second.get(i), 1L, Long::sum);
      cells.merge(java.util.Arrays.asList(first.get(i), second.get(i)), 1L, Long::sum);
    }
    double index = pairs(cells);
    double firstPairs = pairs(firstSizes);
    double secondPairs = pairs(secondSizes);
    double expected = first.size() < 2 ? 0 : firstPairs * secondPairs / choose2(first.size());
    double maximum = (firstPairs + secondPairs) / 2;
    if (maximum == expected) {
      return 1.0;
    }
    return (index - expected) / (maximum - expected);
  }

  private static double pairs(Map<?, Long> counts) {
    return counts.values().stream().mapToDouble(AdjustedRandIndex::choose2).sum();
  }

  private static double choose2(long n) {
    return n * (n - 1) / 2.0;
  }
}
