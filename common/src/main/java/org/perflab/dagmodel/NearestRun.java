package org.perflab.dagmodel;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.perflab.grouping.SizeClass;

/**
 * Chooses the training run whose model predicts a target configuration: the run nearest to the target, input size
 * first, then total cores; among the runs of that configuration, the one with the median duration.
 *
 * <p>Runs fall into configurations by (input size class ({@link SizeClass}), total cores), so that repetitions whose
 * bytes differ by a few percent share one. A configuration's size is the median input bytes of its runs. The nearest
 * configuration has the fewest doublings of input size from the target ({@code round(|log2(size ÷ target)|)}), then
 * the smallest {@code |ln(cores ÷ target cores)|}, then the smallest exact {@code |ln(size ÷ target)|}; remaining
 * ties go to the smaller size, then fewer cores. Within it, runs are ordered by duration and the lower median (the
 * run at index {@code (n − 1) / 2}) is chosen; equal durations keep the order of the input list.
 */
public final class NearestRun {
  /**
   * Where a run stands: its input size in bytes (0 when it read nothing), its total cores (task slots) and its
   * duration in seconds.
   */
  public record RunPoint(long inputBytes, int totalCores, double durationS) implements Serializable {}

  private NearestRun() {}

  /**
   * The run of {@code runs} that models a target of {@code targetInputBytes} bytes on {@code targetTotalCores}
   * cores; empty when {@code runs} is empty.
   *
   * @param point where each run stands
   */
  public static <T> Optional<T> choose(List<T> runs, Function<? super T, RunPoint> point, long targetInputBytes,
      int targetTotalCores) {
    Map<String, List<T>> configurations = new LinkedHashMap<>();
    for (T run : runs) {
      RunPoint p = point.apply(run);
      configurations.computeIfAbsent(SizeClass.of(p.inputBytes()) + "x" + p.totalCores(), k -> new ArrayList<>())
          .add(run);
    }
    Comparator<List<T>> nearest = Comparator
        .<List<T>>comparingLong(c -> Math.round(Math.abs(log2(medianBytes(c, point), targetInputBytes))))
        .thenComparingDouble(c -> Math.abs(Math.log(cores(c, point) / (double) Math.max(1, targetTotalCores))))
        .thenComparingDouble(c -> Math.abs(log2(medianBytes(c, point), targetInputBytes)))
        .thenComparingLong(c -> medianBytes(c, point))
        .thenComparingInt(c -> cores(c, point));
    return configurations.values().stream().min(nearest).map(c -> medianDuration(c, point));
  }

  /** log2(a ÷ b), sizes below 1 byte counted as 1. */
  private static double log2(long a, long b) {
    return Math.log(Math.max(1, a) / (double) Math.max(1, b)) / Math.log(2);
  }

  private static <T> long medianBytes(List<T> configuration, Function<? super T, RunPoint> point) {
    long[] bytes = configuration.stream().mapToLong(r -> point.apply(r).inputBytes()).sorted().toArray();
    return bytes[(bytes.length - 1) / 2];
  }

  private static <T> int cores(List<T> configuration, Function<? super T, RunPoint> point) {
    return Math.max(1, point.apply(configuration.get(0)).totalCores());
  }

  private static <T> T medianDuration(List<T> configuration, Function<? super T, RunPoint> point) {
    List<T> sorted = new ArrayList<>(configuration);
    sorted.sort(Comparator.comparingDouble(r -> point.apply(r).durationS()));
    return sorted.get((sorted.size() - 1) / 2);
  }
}
