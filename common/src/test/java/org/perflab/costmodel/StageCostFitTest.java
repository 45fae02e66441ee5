package org.perflab.costmodel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.perflab.costmodel.StageCostFit.Term;

/** NNLS estimation of a stage's costs from its tasks: exact recovery, and what it reports missing. */
class StageCostFitTest {

  /** Tasks of a reduce stage whose run time is 2e6 + 3·local + 9·remote + 400·records + 15·written bytes (ns). */
  private static List<TaskSample> reduceTasks(int n, boolean constantWrite, boolean proportionalRemote) {
    Random r = new Random(42);
    List<TaskSample> tasks = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      double local = 1e6 + r.nextInt(5_000_000);
      double remote = proportionalRemote ? 3 * local : 1e6 + r.nextInt(9_000_000);
      double records = 1e4 + r.nextInt(90_000);
      double written = constantWrite ? 5e5 : 1e5 + r.nextInt(900_000);
      double run = 2e6 + 3 * local + 9 * remote + 400 * records + 15 * written;
      tasks.add(new TaskSample(run, 0, 0, local, remote, records, written, records, 0, 0, 0, 0));
    }
    return tasks;
  }

  @Test
  void recoversTheCostsThatGeneratedTheTasks() {
    StageCostFit.Result fit = StageCostFit.fit(reduceTasks(40, false, false));
    assertThat(fit.costs().get(Term.LOCAL_READ_NS_PER_BYTE)).isCloseTo(3, within(1e-6));
    assertThat(fit.costs().get(Term.NETWORK_NS_PER_BYTE)).isCloseTo(9, within(1e-6));
    assertThat(fit.costs().get(Term.COMPUTE_NS_PER_RECORD)).isCloseTo(400, within(1e-4));
    assertThat(fit.costs().get(Term.SHUFFLE_WRITE_NS_PER_BYTE)).isCloseTo(15, within(1e-6));
    assertThat(fit.fixedNs()).isCloseTo(2e6, within(1.0));
    assertThat(fit.r2()).isCloseTo(1, within(1e-9));
    assertThat(fit.missing()).containsExactly(Term.HDFS_READ_NS_PER_BYTE, Term.SPILL_NS_PER_BYTE);
  }

  @Test
  void constantAndProportionalVolumesAreReportedMissing() {
    StageCostFit.Result fit = StageCostFit.fit(reduceTasks(40, true, true));
    assertThat(fit.missing()).containsExactly(Term.HDFS_READ_NS_PER_BYTE, Term.NETWORK_NS_PER_BYTE,
        Term.SHUFFLE_WRITE_NS_PER_BYTE, Term.SPILL_NS_PER_BYTE);
    // The proportional remote bytes' cost lands on the local term: 3 + 9 × 3 ns per local byte.
    assertThat(fit.costs().get(Term.LOCAL_READ_NS_PER_BYTE)).isCloseTo(30, within(1e-6));
  }

  @Test
  void tooFewTasksEstimateNothingAndCostsStayNonNegative() {
    StageCostFit.Result few = StageCostFit.fit(reduceTasks(4, false, false));
    assertThat(few.fixedNs()).isNull();
    assertThat(few.missing()).containsExactly(Term.values());
    List<TaskSample> faster = new ArrayList<>();
    for (int i = 1; i <= 10; i++) {
      faster.add(new TaskSample(1e9 - 10.0 * i * 1e6, i * 1e6, i * 1e4, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    }
    StageCostFit.Result clamped = StageCostFit.fit(faster);
    assertThat(clamped.costs().get(Term.HDFS_READ_NS_PER_BYTE)).isZero();
  }
}
