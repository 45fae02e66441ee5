package org.perflab.sim;

import java.io.IOException;

/** Shared test models for tests outside this package. */
public final class EngineTestModels {
  private EngineTestModels() {}

  /** The paper's Fig. 2 model: 5 stages, 510 exponential tasks, 64 slots, 1 user, 20,000 applications. */
  public static Model fig2() throws IOException {
    return EngineTest.fig2();
  }
}
