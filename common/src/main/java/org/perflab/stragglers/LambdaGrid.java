package org.perflab.stragglers;

import java.util.ArrayList;
import java.util.List;

/**
 * The hyper-parameter grids of the thesis's Table 4 (reference 002 §4.1.2): BigRoots λp 0.0–4.0 step 0.2 × λq
 * 0.1–1.0 step 0.1 (21 × 10 cells); PCC λca 0.0–1.0 step 0.05 × λcq 0.0–1.0 step 0.1 (21 × 11 cells). Every quantile
 * level of both grids is one of {@link #LEVELS}, so one set of application quantiles serves every cell.
 */
public final class LambdaGrid {
  /** The quantile levels 0.0, 0.1, …, 1.0. */
  public static final List<Double> LEVELS = steps(0.0, 1.0, 0.1);

  private LambdaGrid() {}

  /** One cell: the model, its two parameters (λp, λq or λca, λcq) and the index of its quantile in LEVELS. */
  public record Cell(Model model, double threshold, double quantile, int level) implements java.io.Serializable {}

  /** The baseline a cell belongs to. */
  public enum Model {
    BIGROOTS,
    PCC
  }

  /** Every cell of both grids, BigRoots first. */
  public static List<Cell> cells() {
    List<Cell> cells = new ArrayList<>();
    for (double p : steps(0.0, 4.0, 0.2)) {
      for (double q : steps(0.1, 1.0, 0.1)) {
        cells.add(new Cell(Model.BIGROOTS, p, q, level(q)));
      }
    }
    for (double ca : steps(0.0, 1.0, 0.05)) {
      for (double cq : steps(0.0, 1.0, 0.1)) {
        cells.add(new Cell(Model.PCC, ca, cq, level(cq)));
      }
    }
    return cells;
  }

  /** The index of a level in LEVELS; throws for a level off the grid. */
  public static int level(double q) {
    int index = (int) Math.round(q * 10);
    if (index < 0 || index >= LEVELS.size() || Math.abs(LEVELS.get(index) - q) > 1e-9) {
      throw new IllegalArgumentException("Cannot find quantile level: " + q + " is not on the 0.1 grid");
    }
    return index;
  }

  /** from, from + step, …, to, rounded to 1e-9 so that 0.1·3 prints as 0.3. */
  static List<Double> steps(double from, double to, double step) {
    List<Double> values = new ArrayList<>();
    long n = Math.round((to - from) / step);
    for (long i = 0; i <= n; i++) {
      values.add(Math.round((from + i * step) * 1e9) / 1e9);
    }
    return List.copyOf(values);
  }
}
