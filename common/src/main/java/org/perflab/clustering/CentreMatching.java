package org.perflab.clustering;

import java.util.Arrays;
import java.util.List;

/**
 * Stable cluster ids across runs: each new centre takes the id of the previous run's centre it is matched to, by a
 * minimum-cost assignment on the Euclidean distance (the Hungarian method, O(k³), exact for any k). When there are
 * more new centres than old ones, the new centres left unmatched take fresh ids above the largest old id, in the
 * order of their index; when there are fewer, the old ids left unmatched are retired. With no old centres, new centre
 * {@code i} gets id {@code i}.
 *
 * <p>Distances are taken in whatever space the caller gives both sets of centres; the cluster job gives the old
 * centres transformed by the new run's scaling, so both are in the new run's standardised units.
 */
public final class CentreMatching {
  private CentreMatching() {}

  /** A centre of the previous run: its stable id and its coordinates. */
  public record Centre(int id, double[] point) {
    public Centre {
      point = point.clone();
    }
  }

  /**
   * The stable id of each new centre.
   *
   * @param fresh the new centres' coordinates, all of one dimension
   * @param old the previous run's centres, of the same dimension, with distinct ids
   * @return {@code ids[i]} is the id of {@code fresh.get(i)}
   * @throws IllegalArgumentException when the dimensions differ
   */
  public static int[] ids(List<double[]> fresh, List<Centre> old) {
    int[] ids = new int[fresh.size()];
    if (old.isEmpty()) {
      Arrays.setAll(ids, i -> i);
      return ids;
    }
    double[][] cost = new double[fresh.size()][old.size()];
    for (int i = 0; i < fresh.size(); i++) {
      for (int j = 0; j < old.size(); j++) {
        cost[i][j] = distance(fresh.get(i), old.get(j).point());
      }
    }
    int[] column = assign(cost);
    int next = old.stream().mapToInt(Centre::id).max().getAsInt() + 1;
    for (int i = 0; i < ids.length; i++) {
      ids[i] = column[i] >= 0 ? old.get(column[i]).id() : next++;
    }
    return ids;
  }

  /** The Euclidean distance between two points of one dimension. */
  public static double distance(double[] a, double[] b) {
    if (a.length != b.length) {
      throw new IllegalArgumentException(
          "Cannot match centres: their dimensions differ (" + a.length + " and " + b.length + ")");
    }
    double sum = 0;
    for (int d = 0; d < a.length; d++) {
      double diff = a[d] - b[d];
      sum += diff * diff;
    }
    return Math.sqrt(sum);
  }

  /**
   * The minimum-cost assignment of rows to distinct columns of a rectangular cost matrix: {@code result[r]} is row
   * {@code r}'s column, or −1 when there are more rows than columns and {@code r} is left out.
   */
  public static int[] assign(double[][] cost) {
    int rows = cost.length;
    int columns = rows == 0 ? 0 : cost[0].length;
    if (rows <= columns) {
      return assignRowsToColumns(cost, rows, columns);
    }
    double[][] transposed = new double[columns][rows];
    for (int r = 0; r < rows; r++) {
      for (int c = 0; c < columns; c++) {
        transposed[c][r] = cost[r][c];
      }
    }
    int[] rowOfColumn = assignRowsToColumns(transposed, columns, rows);
    int[] result = new int[rows];
    Arrays.fill(result, -1);
    for (int c = 0; c < columns; c++) {
      result[rowOfColumn[c]] = c;
    }
    return result;
  }

  /**
   * The Hungarian method with row and column potentials, for {@code rows <= columns}: rows are added one at a time,
   * each by a shortest augmenting path in the reduced costs. Indexes are 1-based inside; column 0 is the virtual
   * start of each augmenting path.
   */
  private static int[] assignRowsToColumns(double[][] cost, int rows, int columns) {
    double[] rowPotential = new double[rows + 1];
    double[] columnPotential = new double[columns + 1];
    int[] rowOfColumn = new int[columns + 1];
    int[] previous = new int[columns + 1];
    for (int row = 1; row <= rows; row++) {
      rowOfColumn[0] = row;
      int column = 0;
      double[] slack = new double[columns + 1];
      Arrays.fill(slack, Double.POSITIVE_INFINITY);
      boolean[] visited = new boolean[columns + 1];
      do {
        visited[column] = true;
        int current = rowOfColumn[column];
        double delta = Double.POSITIVE_INFINITY;
        int nextColumn = 0;
        for (int c = 1; c <= columns; c++) {
          if (visited[c]) {
            continue;
          }
          double reduced = cost[current - 1][c - 1] - rowPotential[current] - columnPotential[c];
          if (reduced < slack[c]) {
            slack[c] = reduced;
            previous[c] = column;
          }
          if (slack[c] < delta) {
            delta = slack[c];
            nextColumn = c;
          }
        }
        for (int c = 0; c <= columns; c++) {
          if (visited[c]) {
            rowPotential[rowOfColumn[c]] += delta;
            columnPotential[c] -= delta;
          } else {
            slack[c] -= delta;
          }
        }
        column = nextColumn;
      } while (rowOfColumn[column] != 0);
      do {
        int before = previous[column];
        rowOfColumn[column] = rowOfColumn[before];
        column = before;
      } while (column != 0);
    }
    int[] result = new int[rows];
    for (int c = 1; c <= columns; c++) {
      if (rowOfColumn[c] != 0) {
        result[rowOfColumn[c] - 1] = c - 1;
      }
    }
    return result;
  }
}
