package org.perflab.spark.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which partitions the Stragglers workload injects, and how its options are checked; no Spark. */
class InjectionSpecTest {

  @Test
  void injectedPartitionsAreDistinctInRangeAndTheSameForTheSameSeed() {
    InjectionSpec spec = new InjectionSpec(Injection.GC, 3, 3, 4.0);

    for (int stage = 0; stage < 3; stage++) {
      Set<Integer> chosen = spec.partitions(42L, stage, 40);
      assertThat(chosen).hasSize(3).allSatisfy(p -> assertThat(p).isBetween(0, 39));
      assertThat(spec.partitions(42L, stage, 40)).isEqualTo(chosen);
    }
    assertThat(spec.partitions(42L, 0, 40)).isNotEqualTo(spec.partitions(42L, 1, 40));
    assertThat(spec.partitions(42L, 0, 40)).isNotEqualTo(spec.partitions(7L, 0, 40));
  }

  @Test
  void noInjectionInjectsNothing() {
    assertThat(InjectionSpec.NONE.partitions(42L, 0, 40)).isEmpty();
    assertThat(new InjectionSpec(Injection.NONE, 3, 3, 4.0).partitions(42L, 0, 40)).isEmpty();
  }

  @Test
  void moreThanHalfThePartitionsIsRejected() {
    InjectionSpec spec = new InjectionSpec(Injection.CPU, 1, 3, 4.0);

    assertThat(spec.partitions(1L, 0, 6)).hasSize(3);
    assertThatThrownBy(() -> spec.partitions(1L, 0, 5)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot plan stragglers workload: inject-tasks must be at most half the partitions (3 of 5)");
  }

  @Test
  void optionsOutOfRangeAreRejectedWithTheValue() {
    assertThatThrownBy(() -> new InjectionSpec(Injection.CPU, 0, 3, 4.0))
        .hasMessage("Cannot plan stragglers workload: inject-stages must be at least 1 (0)");
    assertThatThrownBy(() -> new InjectionSpec(Injection.CPU, 1, -1, 4.0))
        .hasMessage("Cannot plan stragglers workload: inject-tasks must be 0 or more (-1)");
    assertThatThrownBy(() -> new InjectionSpec(Injection.CPU, 1, 3, 0.5))
        .hasMessage("Cannot plan stragglers workload: inject-factor must be at least 1 (0.5)");
  }

  @Test
  void typesParseFromIdsAndNamesAndMapToTheirExpectedCause() {
    assertThat(Injection.parse("data-skew")).isEqualTo(Injection.DATA_SKEW);
    assertThat(Injection.parse(" SPILL ")).isEqualTo(Injection.SPILL);
    assertThat(Injection.SLEEP.expectedCause()).isEqualTo("NONE");
    assertThat(Injection.DATA_SKEW.id()).isEqualTo("data-skew");
    assertThatThrownBy(() -> Injection.parse("network")).hasMessage(
        "Cannot parse injection: unknown type (network; valid: none, data-skew, gc, cpu, spill, sleep)");
  }
}
