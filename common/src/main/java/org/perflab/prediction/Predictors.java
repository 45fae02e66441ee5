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

  /**
   * The predictors that learn from runtimes alone: the four laws, Ernest, the consensus of the three laws that can
   * bend (not Gustafson, whose fixed-size use by reference 003 is a misuse) and Ernest, the ratio transfer between
   * series, the nearest configuration, and the blend of the laws that can bend, Ernest, the transfer and the nearest.
   * Every predictor that fits is a {@link Memo}, shared by the consensus and the blend: each fit is made once per
   * (training configurations, target), whichever predictor or inner loop asks for it.
   */
  public static List<Predictor> runtimeOnly() {
    return all(null);
  }

  /**
   * Every predictor: those of {@link #runtimeOnly} with the simulator family (from each run's model) before
   * {@code transfer}, and the family's {@value SimulatorFamily#STAGES} a member of the blend: where the runs have no
   * models (a runtime table) it predicts nothing and the blend is that of the runtime predictors.
   *
   * @param simulators the runs' models (none for a runtime table: the family then gives null with a note); null
   *     leaves the family out
   */
  public static List<Predictor> all(SimulatorFamily simulators) {
    return all(simulators, null);
  }

  /**
   * {@link #all(SimulatorFamily)} with {@code borrowed} ({@link WorkloadTransfer}: the other workloads' speed-ups)
   * after {@code transfer}, and a member of the blend.
   *
   * @param borrowed the other workloads of the target's data set; null leaves it out
   */
  public static List<Predictor> all(SimulatorFamily simulators, WorkloadTransfer borrowed) {
    List<Predictor> out = new ArrayList<>();
    out.add(new Memo(new LawPredictor(Law.SQRT)));
    out.add(new Memo(new LawPredictor(Law.AMDAHL)));
    out.add(new Memo(new LawPredictor(Law.POWER)));
    out.add(new Memo(new LawPredictor(Law.GUSTAFSON)));
    out.add(new Memo(new ErnestPredictor()));
    out.add(new Consensus(Consensus.NAME, List.of(out.get(0), out.get(1), out.get(2), out.get(4))));
    Predictor stages = null;
    if (simulators != null) {
      for (Predictor p : simulators.predictors()) {
        out.add(new Memo(p));
        if (p.name().equals(SimulatorFamily.STAGES)) {
          stages = out.get(out.size() - 1);
        }
      }
    }
    Predictor transfer = new Memo(new RatioTransfer());
    out.add(transfer);
    Predictor lent = borrowed == null ? null : new Memo(borrowed);
    if (lent != null) {
      out.add(lent);
    }
    Predictor nearest = new Memo(new Nearest());
    out.add(nearest);
    List<Predictor> members = new ArrayList<>(List.of(out.get(0), out.get(1), out.get(2), out.get(4), transfer,
        nearest));
    if (lent != null) {
      members.add(lent);
    }
    if (stages != null) {
      members.add(stages);
    }
    out.add(new Blend(Blend.NAME, members));
    return out;
  }

  /**
   * {@code p} as issue 11's harness ran it: every {@link Memo} taken off, the consensus's and the blend's members'
   * too, and the laws and Ernest fitted with their diagnostics ({@link LawPredictor#diagnostics}). The same
   * predictions, each fit made anew at its full cost: the baseline that tests and benchmarks compare with.
   */
  public static Predictor unremembered(Predictor p) {
    if (p instanceof Memo m) {
      return unremembered(m.delegate());
    }
    if (p instanceof LawPredictor l) {
      return new LawPredictor(l.law(), true);
    }
    if (p instanceof ErnestPredictor) {
      return new ErnestPredictor(true);
    }
    if (p instanceof Consensus c) {
      return new Consensus(c.name(), c.members().stream().map(Predictors::unremembered).toList());
    }
    return p instanceof Blend b
        ? new Blend(b.name(), b.members().stream().map(Predictors::unremembered).toList(), b.evidenceCount()) : p;
  }
}
