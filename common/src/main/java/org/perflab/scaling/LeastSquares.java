package org.perflab.scaling;

/**
 * Unconstrained linear least squares, min ‖A·x − b‖, by Householder QR (no normal equations, so the conditioning
 * is that of A, not its square). A column that is a linear combination of the columns before it (its remaining
 * norm below 1e-12 of its own) is left out and gets 0: the result is then a basic least-squares solution.
 */
final class LeastSquares {
  private static final double DEPENDENT = 1e-12;

  private LeastSquares() {}

  /**
   * The least-squares x over the columns of {@code a} whose {@code use} flag is set; the other components are 0.
   *
   * @param a m rows of k values
   * @param b m values
   * @param use k flags
   */
  static double[] solve(double[][] a, double[] b, boolean[] use) {
    int m = b.length;
    int k = use.length;
    double[][] r = new double[m][];
    for (int i = 0; i < m; i++) {
      r[i] = a[i].clone();
    }
    double[] rhs = b.clone();
    int[] pivotRow = new int[k];
    int rank = 0;
    for (int j = 0; j < k; j++) {
      pivotRow[j] = -1;
      if (use[j] && rank < m && reflect(r, rhs, j, rank, columnNorm(a, j, 0))) {
        pivotRow[j] = rank++;
      }
    }
    double[] x = new double[k];
    for (int j = k - 1; j >= 0; j--) {
      int row = pivotRow[j];
      if (row < 0) {
        continue;
      }
      double sum = rhs[row];
      for (int c = j + 1; c < k; c++) {
        sum -= r[row][c] * x[c];
      }
      x[j] = sum / r[row][j];
    }
    return x;
  }

  /**
   * Applies to rows {@code row..m−1} of {@code r} (columns {@code column..}) and {@code rhs} the Householder
   * reflection that zeroes column {@code column} below {@code row}; false, and nothing changed, when that part of
   * the column is negligible against {@code originalNorm} (a dependent column).
   */
  private static boolean reflect(double[][] r, double[] rhs, int column, int row, double originalNorm) {
    double norm = columnNorm(r, column, row);
    if (norm == 0 || norm <= DEPENDENT * originalNorm) {
      return false;
    }
    int m = rhs.length;
    double alpha = r[row][column] > 0 ? -norm : norm;
    double[] v = new double[m];
    for (int i = row; i < m; i++) {
      v[i] = r[i][column];
    }
    v[row] -= alpha;
    double vv = 0;
    for (int i = row; i < m; i++) {
      vv += v[i] * v[i];
    }
    for (int c = column; c < r[row].length; c++) {
      double dot = 0;
      for (int i = row; i < m; i++) {
        dot += v[i] * r[i][c];
      }
      for (int i = row; i < m; i++) {
        r[i][c] -= 2 * dot / vv * v[i];
      }
    }
    double dot = 0;
    for (int i = row; i < m; i++) {
      dot += v[i] * rhs[i];
    }
    for (int i = row; i < m; i++) {
      rhs[i] -= 2 * dot / vv * v[i];
    }
    return true;
  }

  private static double columnNorm(double[][] a, int column, int fromRow) {
    double sum = 0;
    for (int i = fromRow; i < a.length; i++) {
      sum += a[i][column] * a[i][column];
    }
    return Math.sqrt(sum);
  }
}
