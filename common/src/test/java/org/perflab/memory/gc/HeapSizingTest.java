package org.perflab.memory.gc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.perflab.errors.BadInputException;

/** The safety-factor fallback without telemetry, and bad input. */
class HeapSizingTest {
  private static final long MIB = 1L << 20;

  @Test
  void withoutTelemetryTheHeapIsTheFrameworkSizeTimesTheSafetyFactor() {
    HeapAdvice none = HeapSizing.advise(null, 1000 * MIB, Collector.PARALLEL);
    assertThat(none.basis()).isEqualTo(HeapAdvice.Basis.SAFETY_FACTOR);
    assertThat(none.heapBytes()).isEqualTo(1500 * MIB);
    assertThat(none.edenBytes()).isEmpty();
    assertThat(none.jvmFlags()).isEmpty();
    assertThat(none.predictedGcMs()).isNaN();
    GcRun twoCollections = new GcRun(List.of(GcObservation.young(10 * MIB, 10 * MIB, MIB, MIB, 100 * MIB, 2),
        GcObservation.young(10 * MIB, 10 * MIB, MIB, 2 * MIB, 100 * MIB, 2)), 1000);
    HeapAdvice few = HeapSizing.advise(twoCollections, 101 * MIB, Collector.G1);
    assertThat(few.basis()).isEqualTo(HeapAdvice.Basis.SAFETY_FACTOR);
    assertThat(few.heapBytes()).isEqualTo(152 * MIB);
    assertThat(few.evidence()).contains("2 young collections");
  }

  @Test
  void badInputIsRefusedWithTheValue() {
    assertThatThrownBy(() -> HeapSizing.advise(null, 0, Collector.G1)).isInstanceOf(BadInputException.class)
        .hasMessage("Cannot size a heap: the framework's size is not positive (0 bytes)");
    assertThatThrownBy(() -> GcObservation.young(-1, 0, 0, 0, 0, 0)).isInstanceOf(BadInputException.class)
        .hasMessageStartingWith("Cannot record a collection: a size is negative");
  }
}
