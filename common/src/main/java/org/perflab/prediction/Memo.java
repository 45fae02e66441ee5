package org.perflab.prediction;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A predictor whose predictions are remembered by (training configurations, target), so that a fit is made once
 * however often the harness asks for it: the inner leave-one-out of every held-out configuration asks for the same
 * (training, target) pairs again (the pair {all − h − i, i} of held-out h is the pair {all − i − h, h} of held-out
 * i's inner loop, reversed), and {@link Consensus} and {@link Blend} ask their members for predictions the harness
 * has already made for the members themselves. The training set is keyed by what the prediction reads of it ({@link
 * Predictor#reads}; for a law, the target's series alone, so that the fits of the blend's nested loops that leave out
 * configurations of other series are fits already made), by the identity of its {@link Measured} elements in order
 * (the harness builds them once per workload and removes configurations from one list, so the same set has the same
 * order): no run list is hashed, and two workloads share an entry only where the prediction reads no configuration,
 * which by {@link Predictor#reads}'s contract is then the same. A memo holds at most {@value #LIMIT} predictions
 * before it is cleared, a bound on memory, not on correctness; it is not serialised.
 */
public final class Memo implements Predictor {
  /** Predictions kept before the memo is cleared. */
  static final int LIMIT = 200_000;

  private static final long serialVersionUID = 1L;
  private final Predictor delegate;
  private transient Map<Key, Estimate> memo;

  /** Remembers {@code delegate}'s predictions. */
  public Memo(Predictor delegate) {
    this.delegate = delegate;
  }

  /** The predictor remembered. */
  public Predictor delegate() {
    return delegate;
  }

  @Override
  public String name() {
    return delegate.name();
  }

  @Override
  public boolean modelsConfiguration() {
    return delegate.modelsConfiguration();
  }

  @Override
  public Candidacy candidacy() {
    return delegate.candidacy();
  }

  @Override
  public List<Measured> reads(List<Measured> training, Target target) {
    return delegate.reads(training, target);
  }

  @Override
  public Estimate predict(List<Measured> training, Target target) {
    Map<Key, Estimate> m = memo();
    Key key = new Key(delegate.reads(training, target).toArray(new Measured[0]), target);
    Estimate cached = m.get(key);
    if (cached == null) {
      cached = delegate.predict(training, target);
      if (m.size() > LIMIT) {
        m.clear();
      }
      m.put(key, cached);
    }
    return cached;
  }

  private synchronized Map<Key, Estimate> memo() {
    if (memo == null) {
      memo = new ConcurrentHashMap<>();
    }
    return memo;
  }

  /** A prediction's inputs: the training configurations by identity, in order, and the target. */
  private record Key(Measured[] training, Target target) {
    @Override
    public boolean equals(Object o) {
      if (!(o instanceof Key k) || k.training.length != training.length || !k.target.equals(target)) {
        return false;
      }
      for (int i = 0; i < training.length; i++) {
        if (k.training[i] != training[i]) {
          return false;
        }
      }
      return true;
    }

    @Override
    public int hashCode() {
      int h = target.hashCode();
      for (Measured m : training) {
        h = 31 * h + System.identityHashCode(m);
      }
      return h;
    }
  }
}
