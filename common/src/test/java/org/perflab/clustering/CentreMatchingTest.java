package org.perflab.clustering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.perflab.clustering.CentreMatching.Centre;

class CentreMatchingTest {
  @Test
  void theFirstRunNumbersItsCentresInOrder() {
    assertThat(CentreMatching.ids(List.of(p(5), p(1), p(3)), List.of())).containsExactly(0, 1, 2);
  }

  @Test
  void reorderedCentresKeepTheirOldIds() {
    List<Centre> old = List.of(new Centre(4, p(0, 0)), new Centre(7, p(10, 0)), new Centre(9, p(0, 10)));
    // The same three centres, moved a little and listed in another order.
    assertThat(CentreMatching.ids(List.of(p(0.5, 9.5), p(0.2, -0.1), p(9.8, 0.3)), old)).containsExactly(9, 4, 7);
  }

  @Test
  void theAssignmentMinimisesTotalDistanceWhereGreedyDoesNot() {
    // Greedy by smallest distance takes A→1 (1.0), then B→2 (10.0): 11.0. The optimum is A→2 (2.0) + B→1 (1.5): 3.5.
    List<Centre> old = List.of(new Centre(1, p(0)), new Centre(2, p(3)));
    double[] a = p(1);
    double[] b = p(-1.5);
    assertThat(CentreMatching.distance(a, old.get(0).point())).isEqualTo(1.0);
    assertThat(CentreMatching.ids(List.of(a, b), old)).containsExactly(2, 1);
  }

  @Test
  void extraNewCentresGetFreshIdsAboveTheLargestOldId() {
    List<Centre> old = List.of(new Centre(3, p(0)), new Centre(5, p(10)));
    assertThat(CentreMatching.ids(List.of(p(50), p(9), p(-40), p(1)), old)).containsExactly(6, 5, 7, 3);
  }

  @Test
  void fewerNewCentresRetireTheUnmatchedOldIds() {
    List<Centre> old = List.of(new Centre(0, p(0)), new Centre(1, p(10)), new Centre(2, p(20)));
    assertThat(CentreMatching.ids(List.of(p(19), p(1)), old)).containsExactly(2, 0);
  }

  @Test
  void assignmentEqualsBruteForceOnRandomMatrices() {
    Random random = new Random(42);
    for (int trial = 0; trial < 200; trial++) {
      int rows = 1 + random.nextInt(5);
      int columns = 1 + random.nextInt(5);
      double[][] cost = new double[rows][columns];
      for (double[] row : cost) {
        for (int c = 0; c < columns; c++) {
          row[c] = random.nextInt(20);
        }
      }
      int[] assignment = CentreMatching.assign(cost);
      assertThat(total(cost, assignment)).as("trial %d", trial).isEqualTo(bruteForce(cost));
      assertThat(java.util.Arrays.stream(assignment).filter(c -> c >= 0).toArray()).doesNotHaveDuplicates()
          .hasSize(Math.min(rows, columns));
    }
  }

  @Test
  void centresOfOtherDimensionsAreRefused() {
    assertThatThrownBy(() -> CentreMatching.ids(List.of(p(1, 2)), List.of(new Centre(0, p(1)))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot match centres: their dimensions differ (2 and 1)");
  }

  private static double[] p(double... coordinates) {
    return coordinates;
  }

  private static double total(double[][] cost, int[] assignment) {
    double sum = 0;
    for (int r = 0; r < assignment.length; r++) {
      sum += assignment[r] >= 0 ? cost[r][assignment[r]] : 0;
    }
    return sum;
  }

  /** The least total over every injective assignment of the smaller side into the larger. */
  private static double bruteForce(double[][] cost) {
    int rows = cost.length;
    int columns = cost[0].length;
    List<int[]> assignments = new ArrayList<>();
    extend(new int[rows], 0, new boolean[columns], rows - Math.min(rows, columns), assignments);
    return assignments.stream().mapToDouble(a -> total(cost, a)).min().getAsDouble();
  }

  private static void extend(int[] partial, int row, boolean[] used, int skipsLeft, List<int[]> out) {
    if (row == partial.length) {
      out.add(partial.clone());
      return;
    }
    for (int c = 0; c < used.length; c++) {
      if (!used[c]) {
        used[c] = true;
        partial[row] = c;
        extend(partial, row + 1, used, skipsLeft, out);
        used[c] = false;
      }
    }
    if (skipsLeft > 0) {
      partial[row] = -1;
      extend(partial, row + 1, used, skipsLeft - 1, out);
    }
  }
}
