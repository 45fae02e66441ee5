package org.perflab.jobs;

import org.perflab.jobs.cli.ExitCode;
import org.perflab.jobs.cli.Preflight;
import org.perflab.jobs.cli.RunSummary;
import org.perflab.jobs.cli.TextFiles;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.perflab.errors.BadInputException;
import org.perflab.sim.Engine;
import org.perflab.sim.Model;
import org.perflab.sim.ModelReader;
import org.perflab.sim.Result;
import org.perflab.sim.ResultWriter;
import org.perflab.sim.TaskChoice;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code perflab simulate}: runs one simulator model on the driver, without a SparkSession, and writes the result
 * JSON. Options are documented in docs/jobs.md; the model and result formats in docs/simulator.md.
 */
@Command(
    name = "simulate",
    mixinStandardHelpOptions = true,
    description = "Simulate one dagSim-style model locally (no cluster) and write its measures as JSON.")
public final class SimulateJob implements Callable<Integer> {
  private static final Logger LOG = LoggerFactory.getLogger(SimulateJob.class);

  /** What one simulate run needs; null fields keep the model file's values. */
  public record Options(
      String model, String output, Long seed, Integer nodes, Integer maxJobs, TaskChoice taskChoice,
      double targetCi) {
    public Options {
      BadInputException.require(targetCi >= 0 && targetCi < 1,
          "Cannot simulate: --target-ci must be in [0, 1) (%s)", targetCi);
      BadInputException.require(nodes == null || nodes >= 1, "Cannot simulate: --nodes must be >= 1 (%s)", nodes);
      BadInputException.require(maxJobs == null || maxJobs >= 1,
          "Cannot simulate: --max-jobs must be >= 1 (%s)", maxJobs);
    }
  }

  @Option(names = "--model", required = true, paramLabel = "FILE",
      description = "Model file (JSON, dagSim vocabulary; see docs/simulator.md). Any Hadoop path.")
  String model;

  @Option(names = "--output", required = true, paramLabel = "FILE",
      description = "Result JSON to write (replaced atomically). Any Hadoop path.")
  String output;

  @Option(names = "--seed", paramLabel = "N", description = "Overrides the model's seed.")
  Long seed;

  @Option(names = "--nodes", paramLabel = "N", description = "Overrides the model's Nodes (task slots).")
  Integer nodes;

  @Option(names = "--max-jobs", paramLabel = "N", description = "Overrides the model's maxJobs (applications).")
  Integer maxJobs;

  @Option(names = "--task-choice", paramLabel = "fifo|random",
      description = "Overrides the model's taskChoice: fifo, or random (dagSim's draw).")
  String taskChoice;

  @Option(names = "--target-ci", paramLabel = "R", defaultValue = "0",
      description = "Stop once the execution-time CI half-width is at most R times the mean (0: run maxJobs; "
          + "default ${DEFAULT-VALUE}).")
  double targetCi;

  private final Clock clock;

  public SimulateJob() {
    this(Clock.systemUTC());
  }

  SimulateJob(Clock clock) {
    this.clock = clock;
  }

  @Override
  public Integer call() {
    Options options = new Options(model, output, seed, nodes, maxJobs, parseTaskChoice(taskChoice), targetCi);
    Preflight.of("simulate").scheme("--model", options.model()).outputFile("--output", options.output());
    Model m = readModel(options);
    LOG.info("Simulating {} on {} slots, up to {} applications", options.model(), m.nodes(), m.maxJobs());
    Instant start = clock.instant();
    Result result = new Engine(m).run(m.seed(), options.targetCi());
    Duration took = Duration.between(start, clock.instant());
    TextFiles.writeAtomically(options.output(), ResultWriter.toJson(result));
    RunSummary.print(String.format(Locale.ROOT,
        "simulate: %d applications, %d tasks in %.1f s; mean execution time %.3f%n%s", result.applications(),
        result.tasks(), took.toMillis() / 1000.0, result.execution().mean(), RunSummary.output(options.output())));
    return ExitCode.SUCCESS.code();
  }

  /** A task choice written in any case; null stays null. */
  static TaskChoice parseTaskChoice(String text) {
    if (text == null) {
      return null;
    }
    for (TaskChoice c : TaskChoice.values()) {
      if (c.name().equalsIgnoreCase(text)) {
        return c;
      }
    }
    throw new BadInputException("Cannot simulate: --task-choice must be fifo or random (" + text + ")");
  }

  /** The model file with the options' overrides applied; bad input names the offending field. */
  static Model readModel(Options options) {
    Model m = ModelReader.parse(TextFiles.read(options.model(), "model " + options.model()), options.model());
    if (options.seed() != null) {
      m = m.withSeed(options.seed());
    }
    if (options.nodes() != null) {
      m = m.withNodes(options.nodes());
    }
    if (options.maxJobs() != null) {
      m = m.withMaxJobs(options.maxJobs());
    }
    if (options.taskChoice() != null) {
      m = m.withTaskChoice(options.taskChoice());
    }
    return m;
  }
}
