package org.perflab.recommend;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import org.perflab.prediction.Configuration;
import org.perflab.prediction.Run;

/**
 * The configurations {@code recommend} predicts for a workload's size class: every executor shape the workload was
 * measured with (cores per executor and executor memory) at every executor count it was measured with, plus the
 * powers of two between its fewest and most executors. Counts beyond the measured range are not considered: the
 * predictors extrapolate poorly there, and a recommendation there could not be checked.
 */
public final class CandidateGrid {
  private CandidateGrid() {}

  /** The grid for {@code sizeClass} from the workload's {@code runs} (of every size class). */
  public static List<Configuration> of(List<Run> runs, int sizeClass) {
    TreeSet<Integer> counts = new TreeSet<>();
    runs.forEach(r -> counts.add(r.executors()));
    if (counts.isEmpty()) {
      return List.of();
    }
    for (int n = 1; n <= counts.last(); n *= 2) {
      if (n >= counts.first()) {
        counts.add(n);
      }
    }
    List<Configuration> out = new ArrayList<>();
    for (Shape s : shapes(runs)) {
      counts.forEach(n -> out.add(new Configuration(sizeClass, n, s.cores(), s.memoryBytes())));
    }
    return out;
  }

  private record Shape(int cores, Long memoryBytes) {}

  private static List<Shape> shapes(List<Run> runs) {
    List<Shape> out = new ArrayList<>();
    runs.stream().map(r -> new Shape(r.coresPerExecutor(), r.executorMemoryBytes())).distinct()
        .sorted(java.util.Comparator.comparingInt(Shape::cores).thenComparing(Shape::memoryBytes,
            java.util.Comparator.nullsFirst(java.util.Comparator.naturalOrder())))
        .filter(Objects::nonNull).forEach(out::add);
    return out;
  }
}
