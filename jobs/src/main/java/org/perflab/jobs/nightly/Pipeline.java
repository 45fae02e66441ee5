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

  /** The steps, in the order the night runs them. */
  public static final List<Step> STEPS = List.of(
      new Step("ingest", List.of(), Pipeline::ingestOptions, Step.WhenUnchanged.RUNS),
      new Step("maintain", List.of("ingest"), night -> List.of("--output", night.output()), Step.WhenUnchanged.RUNS),
      new Step("features", List.of("ingest"), incremental()),
      new Step("diagnose", List.of("features"), incremental()),
      new Step("regressions", List.of("features"), incremental()),
      new Step("stage-costs", List.of("ingest"), incremental()),
      new Step("cluster", List.of("features"), input()),
      new Step("scaling", List.of("features"), input()),
      new Step("regress", List.of("features"), input()),
      new Step("evaluate", List.of("features"), input()),
      new Step("model", List.of("features"), Pipeline::modelOptions),
      new Step("sweep", List.of("model"), Pipeline::sweepOptions),
      new Step("memory", List.of("ingest"), incremental()),
      new Step("recommend", List.of("features"), input()),
      new Step("report", List.of(), input(), Step.WhenUnchanged.RUNS));

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
