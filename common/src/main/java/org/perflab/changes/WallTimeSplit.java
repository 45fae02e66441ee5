package org.perflab.changes;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * An application's wall time split by its stages: the union of the stage attempts' submission-to-completion spans, and
 * the time outside every stage, before the first stage (driver start-up, the application's code before its first
 * job), between stages (driver work between jobs, gaps between a job's stages, waiting) and after the last stage.
 * Seconds; NaN when the application's start or end is unknown. The four parts add up to the wall time.
 *
 * @param beforeS application start to the first stage's submission (the wall time when no stage ran)
 * @param stagesS the union of the stage spans
 * @param betweenS the gaps between the stage spans
 * @param afterS the last stage's completion to the application's end
 */
public record WallTimeSplit(double beforeS, double stagesS, double betweenS, double afterS) {
  /** No start or end: nothing known. */
  public static final WallTimeSplit UNKNOWN = new WallTimeSplit(Double.NaN, Double.NaN, Double.NaN, Double.NaN);

  /** The time outside every stage: before, between and after, in seconds. */
  public double outsideS() {
    return beforeS + betweenS + afterS;
  }

  /** Whether the split is known. */
  public boolean known() {
    return !Double.isNaN(stagesS);
  }

  /**
   * Splits {@code [startMs, endMs]} by the stage spans. A span is clipped to the application; a stage that never
   * completed ({@code completion < submission}, e.g. -1) runs until the end; a span without a submission is ignored.
   *
   * @param startMs application start, epoch ms
   * @param endMs application end, epoch ms (at least {@code startMs})
   * @param spans {submission, completion} pairs of the stage attempts, epoch ms, in any order
   */
  public static WallTimeSplit of(long startMs, long endMs, List<long[]> spans) {
    if (endMs < startMs) {
      return UNKNOWN;
    }
    long[][] clipped = spans.stream().filter(s -> s[0] > 0)
        .map(s -> new long[] {clamp(s[0], startMs, endMs), s[1] < s[0] ? endMs : clamp(s[1], startMs, endMs)})
        .sorted(Comparator.comparingLong(s -> s[0])).toArray(long[][]::new);
    if (clipped.length == 0) {
      return new WallTimeSplit((endMs - startMs) / 1000.0, 0, 0, 0);
    }
    long covered = 0;
    long gaps = 0;
    long[] current = Arrays.copyOf(clipped[0], 2);
    for (long[] s : clipped) {
      if (s[0] > current[1]) {
        covered += current[1] - current[0];
        gaps += s[0] - current[1];
        current = Arrays.copyOf(s, 2);
      } else {
        current[1] = Math.max(current[1], s[1]);
      }
    }
    covered += current[1] - current[0];
    return new WallTimeSplit((clipped[0][0] - startMs) / 1000.0, covered / 1000.0, gaps / 1000.0,
        (endMs - current[1]) / 1000.0);
  }

  private static long clamp(long x, long low, long high) {
    return Math.max(low, Math.min(high, x));
  }
}
