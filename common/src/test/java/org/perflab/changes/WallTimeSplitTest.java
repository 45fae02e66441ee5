package org.perflab.changes;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class WallTimeSplitTest {
  @Test
  void overlappingStagesCountOnceAndTheGapsBetweenThemAreOutside() {
    // app 0-30 s; stages 5-10, 8-12 (overlapping), 15-20 and 16-18 (inside it), 22-27
    WallTimeSplit split = WallTimeSplit.of(1_000_000, 1_030_000, List.of(new long[] {1_015_000, 1_020_000},
        new long[] {1_005_000, 1_010_000}, new long[] {1_008_000, 1_012_000}, new long[] {1_016_000, 1_018_000},
        new long[] {1_022_000, 1_027_000}));
    assertThat(split).isEqualTo(new WallTimeSplit(5, 17, 5, 3));
    assertThat(split.outsideS()).isEqualTo(13);
  }

  @Test
  void aStageThatNeverCompletedRunsToTheEndAndSpansAreClippedToTheApplication() {
    WallTimeSplit split = WallTimeSplit.of(1_000_000, 1_010_000, List.of(new long[] {999_000, 1_002_000},
        new long[] {1_004_000, -1}));
    assertThat(split).isEqualTo(new WallTimeSplit(0, 8, 2, 0));
  }

  @Test
  void withoutStagesEverythingIsBeforeThemAndAnEndBeforeTheStartIsUnknown() {
    assertThat(WallTimeSplit.of(0, 4_000, List.of())).isEqualTo(new WallTimeSplit(4, 0, 0, 0));
    assertThat(WallTimeSplit.of(4_000, 0, List.of()).known()).isFalse();
  }
}
