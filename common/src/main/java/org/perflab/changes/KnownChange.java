package org.perflab.changes;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Makes a run that its wall time alone left within noise a change when its own log shows what changed: its set-up
 * differs from its baseline's ({@link Attribution#setUpChange}: configuration that acts on time, task slots, an input
 * of another size, the plan). The threshold of 4 noise units is for runs where nothing is known to have changed, where
 * a change is rare and a steady run must almost never be flagged. A run whose configuration, slots, input or plan
 * changed is a different question, "did that change slow it?", and a change is what is to be expected: it is judged at
 * the pair threshold ({@link DetectorOptions#pairZ}, 2.54 for a threshold of 4), where a steady run lands 1 time in 180
 * for normal noise. A run whose set-up did not change is judged as before, so the steady runs flagged do not change.
 *
 * <p>The set-up must differ from the baseline's median run (the run the causes are computed against) and from more
 * than half of the baseline runs with a profile, so that a level that mixes set-ups (runs of two configurations
 * interleaved) does not make every run a known change. Faster runs too: a run that more executors sped up by at least
 * the pair threshold is an improvement with its change as the cause.
 *
 * <p>A change that stays is reported once: the pair or triple the next runs make with the run reported is that change
 * confirmed, not a second one (the job withdraws it).
 */
public final class KnownChange {
  private KnownChange() {}

  /**
   * Whether the wall time's judgement of a run is a candidate: within noise, at least the pair threshold off its level
   * on either side.
   */
  public static boolean candidate(Judgement wall, DetectorOptions options) {
    return wall.verdict() == Verdict.WITHIN_NOISE && Math.abs(wall.z()) >= options.pairZ();
  }

  /**
   * The wall time's judgement of a run made a {@link Verdict#REGRESSION} (slower) or an {@link Verdict#IMPROVEMENT}
   * (faster) of kind {@link ChangeKind#KNOWN_CHANGE} when it is a {@link #candidate} and its set-up differs from the
   * baseline's median run and from more than half of the baseline runs with a profile; else {@code wall} unchanged.
   *
   * @param wall the run's wall-time judgement
   * @param run the run's profile
   * @param reference the profile of the baseline's median run
   * @param baseline the profiles of the baseline runs that have one (with {@code reference})
   */
  public static Judgement confirm(Judgement wall, RunProfile run, RunProfile reference, List<RunProfile> baseline,
      DetectorOptions options) {
    if (!candidate(wall, options)) {
      return wall;
    }
    Optional<String> what = Attribution.setUpChange(run, reference);
    List<RunProfile> known = baseline.stream().filter(Objects::nonNull).toList();
    long differing = known.stream().filter(b -> Attribution.setUpChange(run, b).isPresent()).count();
    if (what.isEmpty() || 2 * differing <= known.size()) {
      return wall;
    }
    return wall.confirmed(wall.z() > 0 ? Verdict.REGRESSION : Verdict.IMPROVEMENT,
        new SetUpChanged(what.get(), (int) differing, known.size()));
  }
}
