package org.perflab.prediction;

import java.util.ArrayList;
import java.util.List;
import org.perflab.scaling.Law;

/**
 * The predictors the harness runs, in its documented order. The order breaks ties in {@link Selection}: simpler,
 * better-founded predictors first.
 */
public final class Predictors {
  private Predictors() {}

  /** The names of the predictors that need no event log, in order. */
  public static final List<String> RUNTIME_ONLY = List.of("sqrt", "amdahl", "power", "gustafson", "ernest",
      Consensus.NAME, Nearest.NAME);

  /**
   * The predictors that learn from runtimes alone: the four laws, Ernest, the consensus of the three laws that can
   * bend (not Gustafson, whose fixed-size use by reference 003 is a misuse) and Ernest, and the nearest configuration.
   */
  public static List<Predictor> runtimeOnly() {
    List<Predictor> out = new ArrayList<>();
    out.add(new LawPredictor(Law.SQRT));
    out.add(new LawPredictor(Law.AMDAHL));
    out.add(new LawPredictor(Law.POWER));
    out.add(new LawPredictor(Law.GUSTAFSON));
    out.add(new ErnestPredictor());
    out.add(new Consensus(Consensus.NAME, List.of(out.get(0), out.get(1), out.get(2), out.get(4))));
    out.add(new Nearest());
    return out;
  }
}
