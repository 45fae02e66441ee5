package org.perflab.dagmodel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.perflab.errors.BadInputException;
import org.perflab.queueing.ForkJoinBound;
import org.perflab.queueing.TaskPrecedenceAmva;
import org.perflab.sim.Distribution;
import org.perflab.sim.Model;
import org.perflab.sim.Stage;
import org.perflab.sim.TaskChoice;

class ScaledPredictionTest {
  private static final long MB = 1L << 20;

  @Test
  void predictsAnotherSlotCountAndInputSizeFromOneScaledModel() {
    Model source = DataScalingTest.mapOnly();
    ScaledPrediction p = ScaledPrediction.predict(source, 512 * MB, 8, 1024 * MB, 1, 1L);
    // 16 tasks of 1 s on 8 slots: 2 waves, plus 2.5 s of start-up and driver time.
    assertThat(p.ratio()).isEqualTo(2.0);
    assertThat(p.slots()).isEqualTo(8);
    assertThat(p.tasks()).isEqualTo(19);
    assertThat(p.simulatedS()).isCloseTo(4.5, within(1e-9));
    assertThat(p.simulatedLowS()).isCloseTo(4.5, within(1e-9));
    assertThat(p.simulatedHighS()).isCloseTo(4.5, within(1e-9));
    Model scaled = DataScaling.scale(source, 2.0).withNodes(8);
    assertThat(p.forkJoinS()).isEqualTo(ForkJoinBound.predict(scaled, 8).upperBound());
    assertThat(p.taskPrecedenceS()).isEqualTo(TaskPrecedenceAmva.solve(scaled, 8, 1e-6, 1000).responseTime());
    // AMVA of a chain: 0.5 + 1.5 + ceil(16/8)·1 + 0.5.
    assertThat(p.taskPrecedenceS()).isCloseTo(4.5, within(1e-9));
  }

  @Test
  void theIntervalOfAReplayedModelComesFromDrawingItsSamplesAndHoldsTheMean() {
    Model varied = new Model(List.of(new Stage("S0", 8, List.of(), List.of(),
        new Distribution.Replay(new double[] {1, 1, 1, 1, 1, 1, 1, 9}), 800, 0)),
        2, 1, new Distribution.Deterministic(0), 1, 1.96, 1L, TaskChoice.FIFO);
    ScaledPrediction p = ScaledPrediction.predict(varied, 800, 2, 800, 200, 7L);
    assertThat(p.ratio()).isEqualTo(1.0);
    // Replayed in order on 2 slots: 1+1+1 on one slot, then 1, then 9 on the other after 3 × 1 s: 12 s.
    assertThat(p.simulatedS()).isCloseTo(12.0, within(1e-9));
    assertThat(p.simulatedLowS()).isLessThan(p.simulatedHighS());
    assertThat(p.simulatedLowS()).isLessThanOrEqualTo(p.simulatedS());
    assertThat(p.simulatedHighS()).isGreaterThanOrEqualTo(p.simulatedS());
    assertThat(ScaledPrediction.predict(varied, 800, 2, 800, 200, 7L)).isEqualTo(p);
  }

  @Test
  void sameSizeNeedsNoBytesOtherSizesDo() {
    Model noBytes = new Model(List.of(new Stage("S0", 4, List.of(), List.of(), new Distribution.Deterministic(1))),
        1, 1, new Distribution.Deterministic(0), 1, 1.96, 1L, TaskChoice.FIFO);
    assertThat(ScaledPrediction.predict(noBytes, 0, 2, 0, 1, 1L).simulatedS()).isCloseTo(2.0, within(1e-9));
    assertThatThrownBy(() -> ScaledPrediction.predict(noBytes, 0, 2, 100, 1, 1L))
        .isInstanceOf(BadInputException.class).hasMessageContaining("input size is unknown or 0");
    assertThatThrownBy(() -> ScaledPrediction.predict(noBytes, 100, 2, 200, 1, 1L))
        .isInstanceOf(BadInputException.class).hasMessageContaining("no stage records bytes");
    assertThatThrownBy(() -> ScaledPrediction.predict(noBytes, 0, 0, 0, 1, 1L))
        .isInstanceOf(BadInputException.class).hasMessage("Cannot predict: the target must have >= 1 task slot (0)");
  }
}
