package org.perflab.regress;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Gradient-boosted regression trees with squared loss, fitted in one JVM: the algorithm of MLlib's
 * {@code GBTRegressor} with subsampling 1.0 and every feature considered at every split, for training sets that fit
 * in memory (runs of workloads: hundreds to thousands of rows), where MLlib's distributed fit costs a Spark job per
 * tree level and no computation.
 *
 * <p>What is MLlib's, as documented by Spark's {@code GradientBoostedTrees} and {@code RandomForest} (Spark 4.1):
 * <ul>
 *   <li>the first tree is fitted to the labels with weight 1; every later tree to the negative gradient of the
 *       squared error at the current prediction, 2 (label − prediction), with weight {@code stepSize};
 *   <li>a tree splits a node on the feature and threshold of largest variance reduction (ties: the lowest feature
 *       index, then the lowest threshold); a value {@code <=} the threshold goes left; a node is a leaf at
 *       {@code maxDepth}, when no split reduces the variance, or when its variance is zero; a node predicts the mean
 *       target of its rows;
 *   <li>a feature's candidate thresholds are the midpoints between its consecutive distinct training values when there
 *       are at most {@code min(maxBins, rows) - 1} of them, else that many midpoints chosen so that the counts between
 *       them are as even as the values allow (equal-frequency bins).
 * </ul>
 * A fit is deterministic: the same rows give the same trees. Sums run in row order, so a threshold whose gain ties
 * another's within rounding may differ from MLlib's choice.
 */
public final class BoostedTrees {
  private final List<Node> trees;
  private final double[] weights;
  private final int features;

  private BoostedTrees(List<Node> trees, double[] weights, int features) {
    this.trees = List.copyOf(trees);
    this.weights = weights.clone();
    this.features = features;
  }

  /**
   * The hyperparameters.
   *
   * @param trees the number of trees, ≥ 1
   * @param maxDepth the depth of the deepest leaf, 0 to 30 (0: each tree is one leaf)
   * @param stepSize the weight of every tree after the first, in (0, 1]
   * @param maxBins the most candidate intervals per feature, ≥ 2
   */
  public record Options(int trees, int maxDepth, double stepSize, int maxBins) {
    public Options {
      require(trees >= 1, "trees", trees, "≥ 1");
      require(maxDepth >= 0 && maxDepth <= 30, "maxDepth", maxDepth, "0 to 30");
      require(stepSize > 0 && stepSize <= 1, "stepSize", stepSize, "(0, 1]");
      require(maxBins >= 2, "maxBins", maxBins, "≥ 2");
    }

    private static void require(boolean valid, String name, Object value, String range) {
      if (!valid) {
        throw new IllegalArgumentException(
            "Cannot boost trees: " + name + " out of range (" + value + "; valid: " + range + ")");
      }
    }
  }

  /** A node of a tree: a split or a leaf, with the count, sum and sum of squares of the targets it holds. */
  public sealed interface Node permits Split, Leaf {
    /** The mean target of the node's training rows. */
    default double prediction() {
      return sum() / count();
    }

    /** Its training rows. */
    long count();

    /** The sum of their targets. */
    double sum();

    /** The sum of their targets' squares. */
    double sumOfSquares();

    /** The variance of the targets: sumOfSquares / count − prediction². */
    default double variance() {
      return BoostedTrees.variance(count(), sum(), sumOfSquares());
    }

    /** The prediction of the leaf that {@code x} reaches. */
    double predict(double[] x);
  }

  /** An internal node: {@code x[feature] <= threshold} goes left; {@code gain} is its variance reduction. */
  public record Split(int feature, double threshold, double gain, Node left, Node right, long count, double sum,
      double sumOfSquares) implements Node {
    @Override
    public double predict(double[] x) {
      return x[feature] <= threshold ? left.predict(x) : right.predict(x);
    }
  }

  /** A leaf: predicts the mean target of its training rows. */
  public record Leaf(long count, double sum, double sumOfSquares) implements Node {
    @Override
    public double predict(double[] x) {
      return prediction();
    }
  }

  /**
   * Fits {@code options.trees()} trees to {@code labels}.
   *
   * @param rows the feature vectors, one per training row, all of one length, no NaN
   * @param labels one label per row, finite
   * @throws IllegalArgumentException when there are no rows, the lengths differ, or a value is not finite
   */
  public static BoostedTrees fit(double[][] rows, double[] labels, Options options) {
    Objects.requireNonNull(options, "options");
    if (rows.length == 0) {
      throw new IllegalArgumentException("Cannot boost trees: no training rows (0)");
    }
    if (labels.length != rows.length) {
      throw new IllegalArgumentException("Cannot boost trees: labels and rows differ in number (" + labels.length
          + " labels, " + rows.length + " rows)");
    }
    int width = rows[0].length;
    for (int i = 0; i < rows.length; i++) {
      if (rows[i].length != width) {
        throw new IllegalArgumentException("Cannot boost trees: row " + i + " has " + rows[i].length
            + " features (the first row has " + width + ")");
      }
      if (!Double.isFinite(labels[i]) || Arrays.stream(rows[i]).anyMatch(v -> !Double.isFinite(v))) {
        throw new IllegalArgumentException("Cannot boost trees: row " + i + " holds a value that is not finite ("
            + labels[i] + ", " + Arrays.toString(rows[i]) + ")");
      }
    }
    int[][] bins = new int[width][];
    double[][] thresholds = new double[width][];
    int candidates = Math.min(options.maxBins(), rows.length) - 1;
    for (int f = 0; f < width; f++) {
      thresholds[f] = thresholds(rows, f, candidates);
      bins[f] = binned(rows, f, thresholds[f]);
    }
    List<Node> trees = new ArrayList<>();
    double[] weights = new double[options.trees()];
    double[] predictions = new double[rows.length];
    double[] targets = labels.clone();
    int[] all = new int[rows.length];
    Arrays.setAll(all, i -> i);
    for (int t = 0; t < options.trees(); t++) {
      if (t > 0) {
        for (int i = 0; i < rows.length; i++) {
          targets[i] = 2 * (labels[i] - predictions[i]);
        }
      }
      Node tree = grow(all, targets, bins, thresholds, 0, options.maxDepth());
      weights[t] = t == 0 ? 1.0 : options.stepSize();
      trees.add(tree);
      for (int i = 0; i < rows.length; i++) {
        predictions[i] += weights[t] * tree.predict(rows[i]);
      }
    }
    return new BoostedTrees(trees, weights, width);
  }

  /**
   * Each row predicted by trees fitted, with the same options, on the rows of the other folds: out-of-fold
   * predictions, whose errors are those of rows the trees did not see.
   *
   * @param folds each row's fold; at least two distinct folds
   * @throws IllegalArgumentException when the folds are fewer than two or differ in number from the rows
   */
  public static double[] outOfFold(double[][] rows, double[] labels, int[] folds, Options options) {
    if (folds.length != rows.length) {
      throw new IllegalArgumentException("Cannot predict out of fold: folds and rows differ in number ("
          + folds.length + " folds, " + rows.length + " rows)");
    }
    int[] distinct = Arrays.stream(folds).distinct().sorted().toArray();
    if (distinct.length < 2) {
      throw new IllegalArgumentException(
          "Cannot predict out of fold: fewer than two folds (" + distinct.length + "; valid: ≥ 2)");
    }
    double[] predictions = new double[rows.length];
    for (int fold : distinct) {
      int[] training = java.util.stream.IntStream.range(0, rows.length).filter(i -> folds[i] != fold).toArray();
      BoostedTrees trees = fit(Arrays.stream(training).mapToObj(i -> rows[i]).toArray(double[][]::new),
          Arrays.stream(training).mapToDouble(i -> labels[i]).toArray(), options);
      for (int i = 0; i < rows.length; i++) {
        if (folds[i] == fold) {
          predictions[i] = trees.predict(rows[i]);
        }
      }
    }
    return predictions;
  }

  /** The sum of the trees' predictions for {@code x}, each times its weight. */
  public double predict(double[] x) {
    if (x.length != features) {
      throw new IllegalArgumentException(
          "Cannot predict with boosted trees: " + x.length + " features (fitted on " + features + ")");
    }
    double sum = 0;
    for (int t = 0; t < trees.size(); t++) {
      sum += weights[t] * trees.get(t).predict(x);
    }
    return sum;
  }

  /** The trees, in the order fitted. */
  public List<Node> trees() {
    return trees;
  }

  /** Each tree's weight: 1 for the first, the step size for the others. */
  public double[] weights() {
    return weights.clone();
  }

  /** The number of features of a row. */
  public int features() {
    return features;
  }

  /**
   * Feature {@code f}'s candidate thresholds, ascending: every midpoint between consecutive distinct values when they
   * number at most {@code candidates}, else the midpoints closest to equal-count boundaries.
   */
  static double[] thresholds(double[][] rows, int f, int candidates) {
    double[] values = new double[rows.length];
    for (int i = 0; i < rows.length; i++) {
      values[i] = rows[i][f];
    }
    Arrays.sort(values);
    List<Double> distinct = new ArrayList<>();
    List<Integer> counts = new ArrayList<>();
    for (double v : values) {
      if (!distinct.isEmpty() && distinct.get(distinct.size() - 1) == v) {
        counts.set(counts.size() - 1, counts.get(counts.size() - 1) + 1);
      } else {
        distinct.add(v);
        counts.add(1);
      }
    }
    int possible = distinct.size() - 1;
    if (possible <= 0 || candidates <= 0) {
      return new double[0];
    }
    List<Double> chosen = new ArrayList<>();
    if (possible <= candidates) {
      for (int k = 1; k <= possible; k++) {
        chosen.add((distinct.get(k - 1) + distinct.get(k)) / 2.0);
      }
    } else {
      double stride = (double) values.length / (candidates + 1);
      double target = stride;
      long seen = counts.get(0);
      for (int k = 1; k < distinct.size(); k++) {
        long before = seen;
        seen += counts.get(k);
        // The boundary after value k - 1 is taken when stopping there lands nearer the target count than going on.
        if (Math.abs(before - target) < Math.abs(seen - target)) {
          chosen.add((distinct.get(k - 1) + distinct.get(k)) / 2.0);
          target += stride;
        }
      }
    }
    return chosen.stream().mapToDouble(Double::doubleValue).toArray();
  }

  /** Each row's bin of feature {@code f}: the number of thresholds below its value. */
  private static int[] binned(double[][] rows, int f, double[] thresholds) {
    int[] bins = new int[rows.length];
    for (int i = 0; i < rows.length; i++) {
      int position = Arrays.binarySearch(thresholds, rows[i][f]);
      // A value equal to a threshold goes left: it is in the bin that threshold closes.
      bins[i] = position >= 0 ? position : -position - 1;
    }
    return bins;
  }

  private static Node grow(int[] members, double[] targets, int[][] bins, double[][] thresholds, int depth,
      int maxDepth) {
    double sum = 0;
    double squares = 0;
    for (int i : members) {
      sum += targets[i];
      squares += targets[i] * targets[i];
    }
    Leaf leaf = new Leaf(members.length, sum, squares);
    if (depth >= maxDepth || Math.abs(leaf.variance()) < 1e-16) {
      return leaf;
    }
    double parent = leaf.variance();
    double bestGain = 0;
    int bestFeature = -1;
    int bestBin = -1;
    for (int f = 0; f < bins.length; f++) {
      int slots = thresholds[f].length + 1;
      long[] n = new long[slots];
      double[] s = new double[slots];
      double[] q = new double[slots];
      for (int i : members) {
        int b = bins[f][i];
        n[b]++;
        s[b] += targets[i];
        q[b] += targets[i] * targets[i];
      }
      long leftN = 0;
      double leftS = 0;
      double leftQ = 0;
      for (int b = 0; b < thresholds[f].length; b++) {
        leftN += n[b];
        leftS += s[b];
        leftQ += q[b];
        long rightN = members.length - leftN;
        if (leftN == 0 || rightN == 0) {
          continue;
        }
        double gain = parent - leftN / (double) members.length * variance(leftN, leftS, leftQ)
            - rightN / (double) members.length * variance(rightN, sum - leftS, squares - leftQ);
        if (gain > bestGain) {
          bestGain = gain;
          bestFeature = f;
          bestBin = b;
        }
      }
    }
    if (bestFeature < 0) {
      return leaf;
    }
    int feature = bestFeature;
    int bin = bestBin;
    int[] left = Arrays.stream(members).filter(i -> bins[feature][i] <= bin).toArray();
    int[] right = Arrays.stream(members).filter(i -> bins[feature][i] > bin).toArray();
    return new Split(feature, thresholds[feature][bin], bestGain,
        grow(left, targets, bins, thresholds, depth + 1, maxDepth),
        grow(right, targets, bins, thresholds, depth + 1, maxDepth), members.length, sum, squares);
  }

  private static double variance(long n, double sum, double squares) {
    double mean = sum / n;
    return squares / n - mean * mean;
  }
}
