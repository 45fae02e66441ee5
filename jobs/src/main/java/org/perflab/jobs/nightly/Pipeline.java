package org.perflab.jobs.nightly;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The nightly pipeline, in order: which job each step runs, what it reads from an earlier step (its dependencies),
 * and its options. Adding a job to the night is one entry in {@link #STEPS} (and a row in docs/operations.md).
 */
public final class Pipeline {
  /** The sweep grid the night simulates for every workload's latest run. */
  static final List<String> SWEEP_GRID = List.of("--per-workload", "--executors", "1,2,4,8,16,32", "--cores",
      "1,2,4,8", "--replications", "3", "--deadline-stat", "p90");

  /** The tables {@code ingest} writes. */
  private static final Set<String> INGEST = Set.of("applications", "jobs", "stages", "tasks", "executors",
      "properties", "property_sets", "property_set_refs", "sql_executions", "sql_operators", "ingest_status");
  private static final Set<String> EVERY = Set.of(Step.EVERY_TABLE);

  /**
   * The steps, in the order the night runs them one at a time; with more at once, a step starts once every earlier
   * step it conflicts with ({@link Step#conflictsWith}) or depends on has ended ({@link #runsAfter}).
   */
  public static final List<Step> STEPS = List.of(
      new Step("ingest", List.of(), INGEST, INGEST, Pipeline::ingestOptions, Step.WhenUnchanged.RUNS),
      new Step("maintain", List.of("ingest"), EVERY, EVERY, night -> List.of("--output", night.output()),
          Step.WhenUnchanged.RUNS),
      new Step("features", List.of("ingest"), with(INGEST, "workloads", "app_features", "stage_features"),
          Set.of("workloads", "app_features", "stage_features"), incremental()),
      new Step("diagnose", List.of("features"), with(INGEST, "app_features", "stage_features", "stragglers",
          "straggler_causes", "findings"), Set.of("stragglers", "straggler_causes", "findings"),
          incremental()),
      // reads diagnose's stragglers for its slow-host evidence, so it runs after diagnose; not a dependency: without
      // them (diagnose failed) it judges as before, on the last committed stragglers
      new Step("regressions", List.of("features"), with(INGEST, "workloads", "app_features", "stage_features",
          "stragglers", "regressions"), Set.of("regressions"), incremental()),
      new Step("stage-costs", List.of("ingest"), with(INGEST, "stage_costs"), Set.of("stage_costs"),
          incremental()),
      new Step("cluster", List.of("features"), Set.of("app_features", "findings", "app_clusters",
          "cluster_centers", "cluster_selection", "cluster_summary"), Set.of("app_clusters", "cluster_centers",
          "cluster_selection", "cluster_summary"), input()),
      new Step("scaling", List.of("features"), with(INGEST, "workloads", "scaling_fits"), Set.of("scaling_fits"),
          input()),
      new Step("regress", List.of("features"), Set.of("workloads", "app_features", "runtime_predictions"),
          Set.of("runtime_predictions"), input()),
      new Step("model", List.of("features"), with(INGEST, "dag_models"), Set.of("dag_models"),
          Pipeline::modelOptions),
      new Step("evaluate", List.of("features"), with(INGEST, "workloads", "app_features", "dag_models",
          "prediction_eval", "prediction_eval_summary", "predictor_choice"), Set.of("prediction_eval",
          "prediction_eval_summary", "predictor_choice"), night -> List.of("--input", night.output(),
          "--no-model-build")),
      new Step("sweep", List.of("model"), Set.of("dag_models", "sweep_results", "sweep_best"),
          Set.of("sweep_results", "sweep_best"), Pipeline::sweepOptions),
      new Step("memory", List.of("ingest"), with(INGEST, "workloads", "memory_recommendations"),
          Set.of("memory_recommendations"), incremental()),
      new Step("recommend", List.of("features"), with(INGEST, "workloads", "app_features", "findings",
          "scaling_fits", "predictor_choice", "sweep_results", "memory_recommendations", "recommendations"),
          Set.of("recommendations"), input()),
      new Step("report", List.of(), EVERY, Set.of("workload_history"), input(), Step.WhenUnchanged.RUNS));

  private static final Map<String, Step> BY_JOB = STEPS.stream()
      .collect(Collectors.toUnmodifiableMap(Step::job, Function.identity()));

  private Pipeline() {}

  /** The step that runs {@code job}, if the pipeline has one. */
  public static Optional<Step> step(String job) {
    return Optional.ofNullable(BY_JOB.get(job));
  }

  /** The names of the steps, in order. */
  public static List<String> jobs() {
    return STEPS.stream().map(Step::job).toList();
  }

  /** The steps {@code night} runs, in order. */
  public static List<Step> steps(NightOptions night) {
    return STEPS.stream().filter(step -> night.runs(step.job())).toList();
  }

  /** The steps {@code job} depends on, directly or through others, nearest first. */
  public static Set<String> prerequisites(String job) {
    Set<String> found = new LinkedHashSet<>();
    List<String> pending = new ArrayList<>(step(job).map(Step::dependsOn).orElse(List.of()));
    while (!pending.isEmpty()) {
      String next = pending.remove(0);
      if (found.add(next)) {
        pending.addAll(step(next).map(Step::dependsOn).orElse(List.of()));
      }
    }
    return found;
  }

  /**
   * For each of {@code steps} (a night's, in pipeline order), the earlier ones it must wait for: those it depends on,
   * directly or through others, and those it conflicts with (one writes a table the other reads or writes). Two steps
   * in neither relation may run at the same time.
   */
  public static Map<String, List<String>> runsAfter(List<Step> steps) {
    Map<String, List<String>> after = new java.util.LinkedHashMap<>();
    for (int i = 0; i < steps.size(); i++) {
      Step step = steps.get(i);
      Set<String> prerequisites = prerequisites(step.job());
      List<String> earlier = new ArrayList<>();
      for (Step before : steps.subList(0, i)) {
        if (prerequisites.contains(before.job()) || before.conflictsWith(step)) {
          earlier.add(before.job());
        }
      }
      after.put(step.job(), List.copyOf(earlier));
    }
    return after;
  }

  private static Set<String> with(Set<String> tables, String... more) {
    Set<String> all = new java.util.TreeSet<>(tables);
    all.addAll(List.of(more));
    return all;
  }

  private static List<String> ingestOptions(NightOptions night) {
    List<String> options = new ArrayList<>();
    for (String archive : night.archives()) {
      options.add("--input");
      options.add(archive);
    }
    options.add("--output");
    options.add(night.output());
    if (!night.full()) {
      options.add("--incremental");
    }
    return options;
  }

  private static List<String> modelOptions(NightOptions night) {
    List<String> options = new ArrayList<>(List.of("--input", night.output(), "--output", night.output()));
    if (night.full()) {
      options.add("--full");
    }
    return options;
  }

  private static List<String> sweepOptions(NightOptions night) {
    List<String> options = new ArrayList<>(List.of("--dag-models", night.output() + "/dag_models"));
    options.addAll(SWEEP_GRID);
    options.addAll(List.of("--output", night.output()));
    return options;
  }

  /** {@code --input ROOT}, and {@code --full} on a full night: the incremental jobs. */
  private static Function<NightOptions, List<String>> incremental() {
    return night -> night.full() ? List.of("--input", night.output(), "--full") : List.of("--input", night.output());
  }

  private static Function<NightOptions, List<String>> input() {
    return night -> List.of("--input", night.output());
  }
}
