package org.perflab.jobs.nightly;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The pipeline's definition: its order, its dependencies (earlier steps only, so acyclic), and each step's options. */
class PipelineTest {
  private static final NightOptions NIGHT = new NightOptions(List.of("/logs/a", "/logs/b"), "/out", false, Set.of());

  @Test
  void theStepsRunInThePipelinesOrder() {
    assertThat(Pipeline.jobs()).containsExactly("ingest", "maintain", "features", "diagnose", "regressions", "stage-costs", "cluster",
        "scaling", "regress", "evaluate", "model", "sweep", "memory", "recommend", "report");
  }

  @Test
  void everyDependencyIsAnEarlierStep() {
    List<String> earlier = new ArrayList<>();
    for (Step step : Pipeline.STEPS) {
      assertThat(earlier).as(step.job() + "'s dependencies").containsAll(step.dependsOn());
      assertThat(earlier).as("a step appears once").doesNotContain(step.job());
      earlier.add(step.job());
    }
  }

  @Test
  void aStepDependsOnWhatItsDependenciesDependOn() {
    assertThat(Pipeline.prerequisites("sweep")).containsExactly("model", "features", "ingest");
    assertThat(Pipeline.prerequisites("report")).isEmpty();
  }

  /**
   * Which steps wait for which, from the tables they declare: maintain (which compacts every table) waits for ingest and
   * every later step for it; stage-costs needs only the ingest tables, so it need not wait for features, nor memory
   * (which reads workloads) for diagnose or stage-costs;
   * recommend reads what scaling, evaluate, sweep and memory write; report reads every table, so it comes last.
   */
  @Test
  void aStepWaitsForTheEarlierStepsThatWriteWhatItTouches() {
    java.util.Map<String, List<String>> after = Pipeline.runsAfter(Pipeline.STEPS);
    assertThat(after.get("maintain")).containsExactly("ingest");
    assertThat(after.get("features")).containsExactly("ingest", "maintain");
    assertThat(after.get("stage-costs")).containsExactly("ingest", "maintain");
    assertThat(after.get("memory")).contains("features").doesNotContain("diagnose", "stage-costs", "cluster");
    assertThat(after.get("sweep")).contains("evaluate", "model");
    assertThat(after.get("recommend")).contains("features", "scaling", "evaluate", "sweep", "memory");
    assertThat(after.get("report")).containsExactlyElementsOf(Pipeline.jobs().subList(0, Pipeline.jobs().size() - 1));
  }

  @Test
  void ingestReadsEveryArchiveIncrementallyUnlessTheNightIsFull() {
    assertThat(Pipeline.step("ingest").orElseThrow().arguments(NIGHT)).containsExactly("ingest", "--input", "/logs/a",
        "--input", "/logs/b", "--output", "/out", "--incremental");
    NightOptions full = new NightOptions(NIGHT.archives(), "/out", true, Set.of());
    assertThat(Pipeline.step("ingest").orElseThrow().arguments(full)).doesNotContain("--incremental");
    assertThat(Pipeline.step("features").orElseThrow().arguments(full)).containsExactly("features", "--input", "/out",
        "--full");
    assertThat(Pipeline.step("features").orElseThrow().arguments(NIGHT)).containsExactly("features", "--input",
        "/out");
  }

  @Test
  void sweepSimulatesTheNightlyGridOverTheModelsOfTheRoot() {
    assertThat(Pipeline.step("sweep").orElseThrow().arguments(NIGHT)).containsExactly("sweep", "--dag-models",
        "/out/dag_models", "--per-workload", "--executors", "1,2,4,8,16,32", "--cores", "1,2,4,8", "--replications",
        "3", "--deadline-stat", "p90", "--output", "/out");
  }

  @Test
  void jobsSelectsStepsInPipelineOrder() {
    NightOptions some = new NightOptions(NIGHT.archives(), "/out", false, Set.of("report", "ingest"));
    assertThat(Pipeline.steps(some)).extracting(Step::job).containsExactly("ingest", "report");
  }
}
