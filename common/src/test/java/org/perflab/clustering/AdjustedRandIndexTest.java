package org.perflab.clustering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class AdjustedRandIndexTest {
  @Test
  void identicalPartitionsUnderOtherLabelsScoreOne() {
    assertThat(AdjustedRandIndex.of(List.of(0, 0, 1, 1, 2), List.of("b", "b", "a", "a", "c"))).isEqualTo(1.0);
  }

  @Test
  void aSplitClassScoresFourSevenths() {
    // n_ij: (0,0)=2, (1,1)=1, (1,2)=1 → Σ C(n_ij) = 1. Rows 2, 2 → Σ C(a) = 2. Columns 2, 1, 1 → Σ C(b) = 1.
    // C(4) = 6, expected = 2·1/6 = 1/3, max = (2+1)/2 = 3/2: ARI = (1 − 1/3) / (3/2 − 1/3) = 4/7.
    assertThat(AdjustedRandIndex.of(List.of(0, 0, 1, 1), List.of(0, 0, 1, 2))).isCloseTo(4.0 / 7, within(1e-12));
  }

  @Test
  void twoClassesAgainstThreeScoreEightThirtyThirds() {
    // n_ij: (0,0)=2, (0,1)=1, (1,1)=1, (1,2)=2 → Σ C(n_ij) = 2. Rows 3, 3 → 6. Columns 2, 2, 2 → 3.
    // C(6) = 15, expected = 6·3/15 = 1.2, max = 4.5: ARI = 0.8 / 3.3 = 8/33.
    assertThat(AdjustedRandIndex.of(List.of(0, 0, 0, 1, 1, 1), List.of(0, 0, 1, 1, 2, 2)))
        .isCloseTo(8.0 / 33, within(1e-12));
  }

  @Test
  void crossedPartitionsScoreBelowZero() {
    // n_ij all 1 → Σ C(n_ij) = 0. Rows 2, 2 → 2; columns 2, 2 → 2. C(4) = 6, expected = 2/3, max = 2:
    // ARI = (0 − 2/3) / (2 − 2/3) = −1/2.
    assertThat(AdjustedRandIndex.of(List.of(0, 0, 1, 1), List.of(0, 1, 0, 1))).isCloseTo(-0.5, within(1e-12));
  }

  @Test
  void degeneratePartitionsThatAgreeScoreOne() {
    assertThat(AdjustedRandIndex.of(List.of(1, 1, 1), List.of(7, 7, 7))).isEqualTo(1.0);
    assertThat(AdjustedRandIndex.of(List.of(1, 2, 3), List.of(4, 5, 6))).isEqualTo(1.0);
    assertThat(AdjustedRandIndex.of(List.of(1), List.of(2))).isEqualTo(1.0);
  }

  @Test
  void oneClassAgainstSingletonsScoresZero() {
    // Σ C(n_ij) = 0, Σ C(a) = 3, Σ C(b) = 0: expected = 0, max = 1.5, ARI = 0.
    assertThat(AdjustedRandIndex.of(List.of(0, 0, 0), List.of(0, 1, 2))).isEqualTo(0.0);
  }

  @Test
  void labelingsOfDifferentLengthsAreRefused() {
    assertThatThrownBy(() -> AdjustedRandIndex.of(List.of(1, 2), List.of(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot compute the adjusted Rand index: the labelings differ in length (2 and 1)");
  }
}
