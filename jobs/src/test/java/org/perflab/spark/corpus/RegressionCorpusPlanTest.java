package org.perflab.spark.corpus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.perflab.spark.corpus.RegressionCorpusPlan.Run;
import org.perflab.spark.corpus.RegressionCorpusPlan.Workload;

class RegressionCorpusPlanTest {
  @Test
  void theDefaultPlanHasEveryWorkloadsSteadyRepeatsBeforeItsChanges() {
    List<Run> runs = RegressionCorpusPlan.parse();
    int changes = List.of(Workload.values()).stream().mapToInt(w -> w.changes().size()).sum();
    assertThat(runs).hasSize(Workload.values().length * RegressionCorpusPlan.STEADY_REPEATS + changes);
    for (Workload workload : Workload.values()) {
      List<Run> own = runs.stream().filter(r -> r.workload() == workload).toList();
      assertThat(own.subList(0, RegressionCorpusPlan.STEADY_REPEATS)).allMatch(r -> r.change() == null);
      assertThat(own.subList(RegressionCorpusPlan.STEADY_REPEATS, own.size())).extracting(Run::change)
          .containsExactlyElementsOf(workload.changes());
    }
  }

  @Test
  void aSmallerPlanKeepsTheChosenWorkloadsInOrder() {
    List<Run> runs = RegressionCorpusPlan.parse("--steady", "8", "--workloads", "join,grep");
    assertThat(runs).hasSize(8 + Workload.JOIN.changes().size() + 8 + Workload.GREP.changes().size());
    assertThat(runs.get(0).id()).isEqualTo("join-steady-1");
    assertThat(runs.get(8).change()).isEqualTo(Workload.JOIN.changes().get(0));
    assertThat(runs.get(8 + Workload.JOIN.changes().size()).id()).isEqualTo("grep-steady-1");
    assertThat(runs.stream().map(Run::line)).allMatch(line -> line.split("\\|", -1).length == 8);
  }

  @Test
  void steadyRepeatsAfterEachChangeFollowIt() {
    List<Run> runs = RegressionCorpusPlan.parse("--steady", "6", "--steady-after-change", "1", "--workloads", "grep");
    List<Run> changed = runs.stream().filter(r -> r.change() != null).toList();
    assertThat(changed).extracting(Run::change).containsExactlyElementsOf(Workload.GREP.changes());
    assertThat(runs).hasSize(6 + 2 * changed.size());
    for (Run run : changed) {
      Run next = runs.get(runs.indexOf(run) + 1);
      assertThat(next.change()).isNull();
      assertThat(next.id()).startsWith("grep-steady-after-");
      assertThat(next.workloadOptions()).isEqualTo(runs.get(0).workloadOptions());
    }
    assertThat(runs.stream().map(Run::id).distinct()).hasSize(runs.size());
  }

  @Test
  void theSmallerMemorysFractionIsAnOption() {
    Run byDefault = RegressionCorpusPlan.parse().stream()
        .filter(r -> r.change() == RegressionCorpusPlan.Change.SMALLER_MEMORY).findFirst().orElseThrow();
    assertThat(byDefault.submitOptions()).contains("--conf spark.memory.fraction=0.01 ").doesNotContain("{");
    Run larger = RegressionCorpusPlan.parse("--memory-fraction", "0.05").stream()
        .filter(r -> r.change() == RegressionCorpusPlan.Change.SMALLER_MEMORY).findFirst().orElseThrow();
    assertThat(larger.submitOptions()).contains("--conf spark.memory.fraction=0.05 ");
    assertThatThrownBy(() -> RegressionCorpusPlan.parse("--memory-fraction", "1"))
        .hasMessageContaining("must be in (0, 1) (1.0)");
  }

  @Test
  void badOptionsSayWhatIsValid() {
    assertThatThrownBy(() -> RegressionCorpusPlan.parse("--workloads", "grep,sort"))
        .hasMessage("Cannot plan the corpus: unknown workload sort (stragglers, grep, join, sleep)");
    assertThatThrownBy(() -> RegressionCorpusPlan.parse("--steady", "0"))
        .hasMessageContaining("steady repeats must be at least 1 before the changes and 0 after each (0, 0)");
    assertThatThrownBy(() -> RegressionCorpusPlan.parse("--steady", "x")).hasMessageContaining("(x)");
    assertThatThrownBy(() -> RegressionCorpusPlan.parse("--steady")).hasMessageContaining("needs a value");
  }
}
