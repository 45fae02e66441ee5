package org.perflab.prediction;

import java.io.Serializable;
import java.util.List;
import org.perflab.errors.BadInputException;

/**
 * The runs of one workload at one configuration, summarised as the harness uses them: the median input size and the
 * median duration (medians, because real archives hold outlier runs several times their configuration's median).
 *
 * @param configuration the configuration
 * @param inputBytes the median of the runs' input bytes
 * @param runs the number of runs
 * @param actualS the median of the runs' durations, seconds
 * @param members the runs themselves
 */
public record Measured(Configuration configuration, long inputBytes, int runs, double actualS, List<Run> members)
    implements Serializable {

  public Measured {
    members = List.copyOf(members);
  }

  /** The summary of {@code runs}, all at {@code configuration}. */
  public static Measured of(Configuration configuration, List<Run> runs) {
    BadInputException.require(!runs.isEmpty(), "Cannot summarise a configuration: no runs (%s)", configuration);
    double[] durations = runs.stream().mapToDouble(Run::durationS).toArray();
    double[] bytes = runs.stream().mapToDouble(Run::inputBytes).toArray();
    return new Measured(configuration, Math.round(Stats.median(bytes)), runs.size(), Stats.median(durations), runs);
  }

  /** What a predictor is asked for this configuration: the configuration at its median input size. */
  public Target target() {
    return new Target(configuration, inputBytes);
  }

  /** Task slots at this configuration. */
  public int totalCores() {
    return configuration.totalCores();
  }
}
