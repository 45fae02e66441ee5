package org.perflab.spark.ingest;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;

/** Wall time per phase of a run, in milliseconds, in the order the phases ended. */
final class PhaseTimer {
  private final Clock clock;
  private final Map<String, Long> phases = new LinkedHashMap<>();
  private long lastMs;

  PhaseTimer(Clock clock) {
    this.clock = clock;
    this.lastMs = clock.millis();
  }

  /** Ends the phase {@code name}: the time since the previous phase ended, or since the timer started. */
  void end(String name) {
    long now = clock.millis();
    phases.merge(name, now - lastMs, Long::sum);
    lastMs = now;
  }

  Map<String, Long> phases() {
    return new LinkedHashMap<>(phases);
  }
}
