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
        "scaling", "regress", "model", "evaluate", "sweep", "memory", "recommend", "report");
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

  /**
   * A step reads what the night's earlier steps wrote, never last night's rows of a table that a later step rewrites:
   * every step that writes a table another step reads comes before it. Only {@code maintain} reads every table before
   * the steps that write them: it compacts their files and changes no row.
   */
  @Test
  void everyStepComesAfterTheStepsThatWriteWhatItReads() {
    List<Step> steps = Pipeline.STEPS;
    for (int i = 0; i < steps.size(); i++) {
      Step reader = steps.get(i);
      if (reader.job().equals("maintain")) {
        continue;
      }
      for (Step later : steps.subList(i + 1, steps.size())) {
        assertThat(later.writes().stream().filter(t -> !t.equals(Step.EVERY_TABLE)
            && (reader.reads().contains(t) || reader.reads().contains(Step.EVERY_TABLE))).toList())
            .as("tables %s reads that the later step %s writes", reader.job(), later.job()).isEmpty();
      }
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
   * evaluate reads the models that model writes, and sweep, which only reads them too, may run beside evaluate;
   * recommend reads what scaling, evaluate, sweep and memory write; report reads every table, so it comes last.
   */
  @Test
  void aStepWaitsForTheEarlierStepsThatWriteWhatItTouches() {
    java.util.Map<String, List<String>> after = Pipeline.runsAfter(Pipeline.STEPS);
    assertThat(after.get("maintain")).containsExactly("ingest");
    assertThat(after.get("features")).containsExactly("ingest", "maintain");
    assertThat(after.get("stage-costs")).containsExactly("ingest", "maintain");
    assertThat(after.get("memory")).contains("features").doesNotContain("diagnose", "stage-costs", "cluster");
    assertThat(after.get("sweep")).contains("model").doesNotContain("evaluate");
    assertThat(after.get("evaluate")).contains("model");
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
