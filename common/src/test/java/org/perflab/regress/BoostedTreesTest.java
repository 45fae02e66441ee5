package org.perflab.regress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

class BoostedTreesTest {
  private static final BoostedTrees.Options ONE_STUMP = new BoostedTrees.Options(1, 1, 0.1, 32);

  @Test
  void oneStumpSplitsAStepAtTheMidpointAndPredictsEachSidesMean() {
    double[][] x = {{1}, {2}, {3}, {10}, {11}, {12}};
    double[] y = {5, 5, 5, 9, 9, 9};
    BoostedTrees trees = BoostedTrees.fit(x, y, ONE_STUMP);

    BoostedTrees.Split root = (BoostedTrees.Split) trees.trees().get(0);
    assertThat(root.feature()).isZero();
    assertThat(root.threshold()).isEqualTo(6.5);
    assertThat(root.gain()).isCloseTo(4.0, within(1e-12)); // variance 4 → 0 on both sides
    assertThat(trees.predict(new double[] {6.5})).isEqualTo(5.0); // a value equal to the threshold goes left
    assertThat(trees.predict(new double[] {6.6})).isEqualTo(9.0);
    assertThat(trees.predict(new double[] {-100})).isEqualTo(5.0);
  }

  @Test
  void theFeatureOfLargestVarianceReductionIsChosenAndANoiseFeatureIsNot() {
    double[][] x = {{0, 3}, {1, 1}, {0, 2}, {1, 3}, {0, 1}, {1, 2}};
    double[] y = {1, 7, 1, 7, 1, 8};
    BoostedTrees.Split root = (BoostedTrees.Split) BoostedTrees.fit(x, y, ONE_STUMP).trees().get(0);
    assertThat(root.feature()).isZero();
    assertThat(root.left().prediction()).isEqualTo(1.0);
    assertThat(root.right().prediction()).isCloseTo(22.0 / 3, within(1e-12));
  }

  @Test
  void laterTreesFitTwiceTheResidualAndAddWithTheStepSize() {
    double[][] x = {{1}, {2}, {3}, {4}};
    double[] y = {1, 2, 3, 4};
    // Depth 0: every tree is one leaf. The first predicts the mean (2.5); the residuals' mean is 0 from then on.
    BoostedTrees leaves = BoostedTrees.fit(x, y, new BoostedTrees.Options(5, 0, 0.1, 32));
    assertThat(leaves.trees()).hasSize(5).allSatisfy(t -> assertThat(t).isInstanceOf(BoostedTrees.Leaf.class));
    assertThat(leaves.predict(new double[] {1})).isCloseTo(2.5, within(1e-12));
    assertThat(leaves.weights()).containsExactly(1.0, 0.1, 0.1, 0.1, 0.1);

    // Depth 1, two trees: the first splits {1,2} from {3,4} (means 1.5, 3.5); the residuals are ∓0.5 on each side,
    // so the second tree, fitted to 2 × residual = ∓1, splits inside one side and adds 0.1 × its leaf mean.
    BoostedTrees two = BoostedTrees.fit(x, y, new BoostedTrees.Options(2, 1, 0.1, 32));
    BoostedTrees.Split second = (BoostedTrees.Split) two.trees().get(1);
    double[] expected = new double[4];
    for (int i = 0; i < 4; i++) {
      double first = x[i][0] <= 2.5 ? 1.5 : 3.5;
      double target = second.predict(x[i]);
      expected[i] = first + 0.1 * target;
      assertThat(two.predict(x[i])).isCloseTo(expected[i], within(1e-12));
    }
    assertThat(second.count()).isEqualTo(4);
    assertThat(second.sum()).isCloseTo(0.0, within(1e-12)); // 2 × the residuals of the first tree sum to zero
    assertThat(second.sumOfSquares()).isCloseTo(4.0, within(1e-12));
  }

  @Test
  void boostingLowersTheTrainingErrorTreeByTree() {
    Random random = new Random(3);
    double[][] x = new double[200][];
    double[] y = new double[200];
    for (int i = 0; i < x.length; i++) {
      x[i] = new double[] {random.nextDouble() * 10, random.nextDouble()};
      y[i] = Math.sin(x[i][0]) + 0.5 * x[i][1];
    }
    double previous = Double.MAX_VALUE;
    for (int trees : new int[] {1, 5, 15, 30}) {
      BoostedTrees fit = BoostedTrees.fit(x, y, new BoostedTrees.Options(trees, 3, 0.1, 32));
      double error = 0;
      for (int i = 0; i < x.length; i++) {
        error += Math.pow(fit.predict(x[i]) - y[i], 2);
      }
      assertThat(error).as("squared error with %d trees", trees).isLessThan(previous);
      previous = error;
      fit.trees().forEach(t -> assertThat(depth(t)).isLessThanOrEqualTo(3));
    }
  }

  @Test
  void manyDistinctValuesAreCutAtEqualCountBoundaries() {
    double[][] x = new double[100][];
    for (int i = 0; i < 100; i++) {
      x[i] = new double[] {i + 1};
    }
    // maxBins 5: four thresholds, each closing a bin of 20 rows.
    assertThat(BoostedTrees.thresholds(x, 0, 4)).containsExactly(20.5, 40.5, 60.5, 80.5);
    // Few distinct values: every midpoint, whatever their counts.
    double[][] repeated = {{1}, {1}, {1}, {1}, {2}, {4}};
    assertThat(BoostedTrees.thresholds(repeated, 0, 4)).containsExactly(1.5, 3.0);
    assertThat(BoostedTrees.thresholds(new double[][] {{7}, {7}}, 0, 4)).isEmpty();
  }

  @Test
  void theSameRowsGiveTheSameTrees() {
    double[][] x = {{1, 0}, {2, 1}, {3, 0}, {4, 1}, {5, 0}};
    double[] y = {3, 1, 4, 1, 5};
    BoostedTrees.Options options = new BoostedTrees.Options(30, 4, 0.1, 32);
    assertThat(BoostedTrees.fit(x, y, options).trees()).isEqualTo(BoostedTrees.fit(x, y, options).trees());
  }

  @Test
  void anOutOfFoldPredictionDoesNotSeeItsOwnFoldsLabels() {
    double[][] x = {{1}, {2}, {3}, {4}, {5}, {6}};
    double[] y = {1, 2, 3, 4, 5, 6};
    int[] folds = {0, 1, 0, 1, 0, 1};
    BoostedTrees.Options options = new BoostedTrees.Options(10, 2, 0.1, 32);
    double[] before = BoostedTrees.outOfFold(x, y, folds, options);

    // Fold 0's labels changed: fold 0's predictions stay, fold 1's (fitted on fold 0) move.
    double[] changed = {100, 2, 300, 4, 500, 6};
    double[] after = BoostedTrees.outOfFold(x, changed, folds, options);
    for (int i = 0; i < x.length; i++) {
      if (folds[i] == 0) {
        assertThat(after[i]).as("row %d, fold 0", i).isEqualTo(before[i]);
      } else {
        assertThat(after[i]).as("row %d, fold 1", i).isNotEqualTo(before[i]);
      }
    }
    // Each is the prediction of the trees fitted on the other fold alone.
    BoostedTrees odd = BoostedTrees.fit(new double[][] {{2}, {4}, {6}}, new double[] {2, 4, 6}, options);
    assertThat(before[0]).isEqualTo(odd.predict(x[0]));
    assertThatThrownBy(() -> BoostedTrees.outOfFold(x, y, new int[6], options))
        .hasMessage("Cannot predict out of fold: fewer than two folds (1; valid: ≥ 2)");
  }

  @Test
  void badInputIsRefusedNamingWhatAndTheValidRange() {
    assertThatThrownBy(() -> new BoostedTrees.Options(0, 4, 0.1, 32))
        .hasMessage("Cannot boost trees: trees out of range (0; valid: ≥ 1)");
    assertThatThrownBy(() -> new BoostedTrees.Options(30, 4, 1.5, 32))
        .hasMessage("Cannot boost trees: stepSize out of range (1.5; valid: (0, 1])");
    assertThatThrownBy(() -> BoostedTrees.fit(new double[0][], new double[0], ONE_STUMP))
        .hasMessage("Cannot boost trees: no training rows (0)");
    assertThatThrownBy(() -> BoostedTrees.fit(new double[][] {{1}, {Double.NaN}}, new double[] {1, 2}, ONE_STUMP))
        .hasMessageStartingWith("Cannot boost trees: row 1 holds a value that is not finite");
    assertThatThrownBy(() -> BoostedTrees.fit(new double[][] {{1}}, new double[] {1}, ONE_STUMP)
        .predict(new double[] {1, 2})).hasMessage("Cannot predict with boosted trees: 2 features (fitted on 1)");
  }

  private static int depth(BoostedTrees.Node node) {
    return node instanceof BoostedTrees.Split s ? 1 + Math.max(depth(s.left()), depth(s.right())) : 0;
  }
}
