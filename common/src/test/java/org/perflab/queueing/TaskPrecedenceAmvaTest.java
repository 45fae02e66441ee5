package org.perflab.queueing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.perflab.queueing.TaskPrecedenceAmva.Node;
import org.perflab.queueing.TaskPrecedenceAmva.Solution;

class TaskPrecedenceAmvaTest {
  private static Node node(String name, double demand, String... pre) {
    return new Node(name, new double[] {demand}, List.of(pre));
  }

  @Test
  void seriesDagWithoutOverlapIsTheSumOfStageMeans() {
    Solution s = TaskPrecedenceAmva.solve(
        List.of(node("A", 10), node("B", 20, "A"), node("C", 5, "B")), new boolean[] {true}, 1e-9, 100);
    assertThat(s.responseTime()).isCloseTo(35.0, within(1e-9));
    assertThat(s.converged()).isTrue();
  }

  @Test
  void twoParallelStagesWithoutContentionTakeTheExponentialMax() {
    double a = 30;
    double b = 10;
    Solution s = TaskPrecedenceAmva.solve(List.of(node("A", a), node("B", b)), new boolean[] {false}, 1e-9, 100);
    assertThat(s.responseTime()).isCloseTo(a + b - a * b / (a + b), within(1e-9));
  }

  @Test
  void contentionInflatesOverlappingStagesAndConverges() {
    List<Node> nodes = List.of(node("S", 5), node("A", 30, "S"), node("B", 10, "S"), node("J", 5, "A", "B"));
    Solution free = TaskPrecedenceAmva.solve(nodes, new boolean[] {false}, 1e-9, 200);
    Solution shared = TaskPrecedenceAmva.solve(nodes, new boolean[] {true}, 1e-9, 200);
    assertThat(free.responseTime()).isCloseTo(5 + 30 + 10 - 300.0 / 40 + 5, within(1e-9));
    assertThat(shared.converged()).isTrue();
    assertThat(shared.iterations()).isLessThan(200);
    assertThat(shared.responseTime()).isGreaterThan(free.responseTime());
    assertThat(shared.nodeResponse()[1]).isGreaterThan(30);
    assertThat(shared.nodeResponse()[0]).isEqualTo(5.0);
  }

  @Test
  void moreContentionNeverShortensTheApplication() {
    double previous = 0;
    for (double bDemand : new double[] {1, 5, 10, 20, 40}) {
      Solution s = TaskPrecedenceAmva.solve(
          List.of(node("A", 30), node("B", bDemand)), new boolean[] {true}, 1e-9, 500);
      assertThat(s.nodeResponse()[0]).isGreaterThanOrEqualTo(30);
      assertThat(s.responseTime()).isGreaterThan(previous);
      previous = s.responseTime();
    }
  }

  @Test
  void nonSeriesParallelDagFallsBackToTheWalk() {
    // The "N" graph A→C, A→D, B→D is not series-parallel.
    Solution s = TaskPrecedenceAmva.solve(
        List.of(node("A", 10), node("B", 10), node("C", 10, "A"), node("D", 10, "A", "B")),
        new boolean[] {false}, 1e-9, 50);
    double startD = TaskPrecedenceAmva.expMax(10, 10);
    assertThat(s.responseTime()).isCloseTo(TaskPrecedenceAmva.expMax(20, startD + 10), within(1e-9));
  }
}
