package org.perflab.sim;

import java.io.Serializable;
import java.util.List;

/**
 * One stage of the application DAG: {@code tasks} identical tasks whose durations follow {@code distribution}; it can
 * start once every stage named in {@code pre} has ended. {@code post} is the inverse relation, kept as written in
 * the model file.
 *
 * <p>{@code inputBytes} and {@code shuffleReadBytes} are the bytes the stage's tasks read from storage and from
 * shuffles, summed over its successful tasks (bytes, ≥ 0). Models built from event logs carry them; 0 means none read
 * or not known (a model file without them). Only the input-size scaling rule reads them
 * ({@code org.perflab.dagmodel.DataScaling}); the simulator ignores them.
 */
public record Stage(String name, int tasks, List<String> pre, List<String> post, Distribution distribution,
    long inputBytes, long shuffleReadBytes) implements Serializable {
  public Stage {
    pre = List.copyOf(pre);
    post = List.copyOf(post);
  }

  /** A stage whose bytes are not known (both 0). */
  public Stage(String name, int tasks, List<String> pre, List<String> post, Distribution distribution) {
    this(name, tasks, pre, post, distribution, 0L, 0L);
  }

  /** Whether the stage records bytes read from storage or from shuffles. */
  public boolean readsData() {
    return inputBytes > 0 || shuffleReadBytes > 0;
  }

  /** The same stage with other predecessors. */
  public Stage withPre(List<String> newPre) {
    return new Stage(name, tasks, newPre, post, distribution, inputBytes, shuffleReadBytes);
  }

  /** The same stage with another distribution. */
  public Stage withDistribution(Distribution newDistribution) {
    return new Stage(name, tasks, pre, post, newDistribution, inputBytes, shuffleReadBytes);
  }
}
