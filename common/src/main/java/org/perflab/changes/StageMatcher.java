package org.perflab.changes;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Matches the stages of two runs of one workload, so that a stage's time in one run can be compared with (or scaled
 * to) its time in the other. Stage ids are not comparable across runs (a run that adds a job shifts every later id),
 * so a stage is known by its position and its normalised name ({@link #normalise}: call site without line numbers).
 *
 * <p>Both runs' stages are put in run order (job ordinal, then stage id) and aligned by the longest common
 * subsequence of their (job ordinal, normalised name) keys; stages left over are then aligned the same way on the
 * normalised name alone, so that a job added before them does not unmatch them. What is still left over is added
 * (only in the second run) or removed (only in the first). The alignment keeps run order: two matched pairs never
 * cross. Runs of more than {@value #LCS_LIMIT} stage pairs fall back to matching the k-th stage of each name in one
 * run with the k-th of that name in the other.
 *
 * <pre>{@code
 * StageAlignment a = StageMatcher.match(baselineStages, currentStages);
 * a.matched();  // pairs to compare stage by stage
 * a.added();    // stages the current run added (a plan change)
 * }</pre>
 */
public final class StageMatcher {
  /** Beyond this many (before × after) cells the quadratic alignment gives way to per-name order. */
  static final long LCS_LIMIT = 4_000_000L;

  private static final Pattern LINE = Pattern.compile(":\\d+");
  private static final Pattern IDS = Pattern.compile("[#$]\\d+|\\(\\d+\\)");
  private static final Pattern SPACE = Pattern.compile("\\s+");
  private static final Comparator<StageRef> RUN_ORDER =
      Comparator.comparingInt(StageRef::jobOrdinal).thenComparingInt(StageRef::stageId);

  private StageMatcher() {}

  /**
   * Aligns the stages of {@code before} with those of {@code after} (either in any order).
   *
   * @return every stage of both runs, in the second run's order with removed stages where they stood
   */
  public static StageAlignment match(List<StageRef> before, List<StageRef> after) {
    List<StageRef> a = before.stream().sorted(RUN_ORDER).toList();
    List<StageRef> b = after.stream().sorted(RUN_ORDER).toList();
    int[] matchOfB = new int[b.size()];
    Arrays.fill(matchOfB, -1);
    align(a, b, matchOfB, StageMatcher::positionKey);
    align(a, b, matchOfB, s -> s.normalisedName());
    return pairs(a, b, matchOfB);
  }

  /** A stage name without line numbers, numeric ids ({@code #12}, {@code $3}, {@code (4)}), case or extra spaces. */
  public static String normalise(String name) {
    if (name == null) {
      return "";
    }
    String s = LINE.matcher(name).replaceAll("");
    s = IDS.matcher(s).replaceAll("");
    return SPACE.matcher(s).replaceAll(" ").trim().toLowerCase(Locale.ROOT);
  }

  private static String positionKey(StageRef s) {
    return s.jobOrdinal() + "|" + s.normalisedName();
  }

  /** Matches the still-unmatched stages of both runs on {@code key}, without crossing an existing pair. */
  private static void align(List<StageRef> a, List<StageRef> b, int[] matchOfB,
      Function<StageRef, String> key) {
    boolean[] usedA = new boolean[a.size()];
    for (int m : matchOfB) {
      if (m >= 0) {
        usedA[m] = true;
      }
    }
    // Align each gap between consecutive matched pairs on its own, so new pairs never cross old ones.
    int lastA = -1;
    int startB = 0;
    for (int j = 0; j <= b.size(); j++) {
      if (j == b.size() || matchOfB[j] >= 0) {
        int endA = j == b.size() ? a.size() : matchOfB[j];
        alignGap(a, b, matchOfB, usedA, lastA + 1, endA, startB, j, key);
        if (j < b.size()) {
          lastA = matchOfB[j];
          startB = j + 1;
        }
      }
    }
  }

  private static void alignGap(List<StageRef> a, List<StageRef> b, int[] matchOfB, boolean[] usedA, int fromA,
      int toA, int fromB, int toB, Function<StageRef, String> key) {
    List<Integer> ia = new ArrayList<>();
    for (int i = fromA; i < toA; i++) {
      if (!usedA[i]) {
        ia.add(i);
      }
    }
    List<Integer> ib = new ArrayList<>();
    for (int j = fromB; j < toB; j++) {
      if (matchOfB[j] < 0) {
        ib.add(j);
      }
    }
    if (ia.isEmpty() || ib.isEmpty()) {
      return;
    }
    if ((long) ia.size() * ib.size() > LCS_LIMIT) {
      byOrder(a, b, ia, ib, matchOfB, usedA, key);
    } else {
      lcs(a, b, ia, ib, matchOfB, usedA, key);
    }
  }

  /** Longest common subsequence of the keys: the fewest stages added and removed that explain the difference. */
  private static void lcs(List<StageRef> a, List<StageRef> b, List<Integer> ia, List<Integer> ib, int[] matchOfB,
      boolean[] usedA, Function<StageRef, String> key) {
    int n = ia.size();
    int m = ib.size();
    String[] ka = ia.stream().map(i -> key.apply(a.get(i))).toArray(String[]::new);
    String[] kb = ib.stream().map(j -> key.apply(b.get(j))).toArray(String[]::new);
    int[][] len = new int[n + 1][m + 1];
    for (int i = n - 1; i >= 0; i--) {
      for (int j = m - 1; j >= 0; j--) {
        len[i][j] = ka[i].equals(kb[j]) ? len[i + 1][j + 1] + 1 : Math.max(len[i + 1][j], len[i][j + 1]);
      }
    }
    int i = 0;
    int j = 0;
    while (i < n && j < m) {
      if (ka[i].equals(kb[j])) {
        matchOfB[ib.get(j)] = ia.get(i);
        usedA[ia.get(i)] = true;
        i++;
        j++;
      } else if (len[i + 1][j] >= len[i][j + 1]) {
        i++;
      } else {
        j++;
      }
    }
  }

  /** The k-th unmatched stage of a key in one run with the k-th of that key in the other (large runs). */
  private static void byOrder(List<StageRef> a, List<StageRef> b, List<Integer> ia, List<Integer> ib,
      int[] matchOfB, boolean[] usedA, Function<StageRef, String> key) {
    Map<String, Deque<Integer>> queues = new HashMap<>();
    for (int i : ia) {
      queues.computeIfAbsent(key.apply(a.get(i)), k -> new ArrayDeque<>()).add(i);
    }
    int last = -1;
    for (int j : ib) {
      Deque<Integer> q = queues.get(key.apply(b.get(j)));
      while (q != null && !q.isEmpty() && q.peek() < last) {
        q.poll(); // would cross an earlier pair
      }
      if (q != null && !q.isEmpty()) {
        int i = q.poll();
        matchOfB[j] = i;
        usedA[i] = true;
        last = i;
      }
    }
  }

  private static StageAlignment pairs(List<StageRef> a, List<StageRef> b, int[] matchOfB) {
    List<StageAlignment.Pair> pairs = new ArrayList<>();
    boolean[] matchedA = new boolean[a.size()];
    for (int m : matchOfB) {
      if (m >= 0) {
        matchedA[m] = true;
      }
    }
    int nextA = 0;
    for (int j = 0; j < b.size(); j++) {
      if (matchOfB[j] >= 0) {
        for (; nextA < matchOfB[j]; nextA++) {
          if (!matchedA[nextA]) {
            pairs.add(new StageAlignment.Pair(Optional.of(a.get(nextA)), Optional.empty()));
          }
        }
        pairs.add(new StageAlignment.Pair(Optional.of(a.get(matchOfB[j])), Optional.of(b.get(j))));
        nextA = matchOfB[j] + 1;
      } else {
        pairs.add(new StageAlignment.Pair(Optional.empty(), Optional.of(b.get(j))));
      }
    }
    for (; nextA < a.size(); nextA++) {
      if (!matchedA[nextA]) {
        pairs.add(new StageAlignment.Pair(Optional.of(a.get(nextA)), Optional.empty()));
      }
    }
    return new StageAlignment(pairs);
  }
}
