package org.perflab.spark.sweep;

import java.util.List;
import org.perflab.costmodel.Codec;
import org.perflab.costmodel.PhaseCostRule;
import org.perflab.costmodel.SerializerKind;
import org.perflab.errors.BadInputException;
import org.perflab.sweep.Grid;
import org.perflab.sweep.GridReader;
import org.perflab.sweep.Statistic;

/**
 * The options of {@code perflab sweep} (docs/jobs.md): the model ({@code model}, a file, or {@code dagModels} and
 * {@code appId}), the grid ({@code grid}, a file, or the lists of executors, cores, memory, input sizes, codecs and
 * serializers, never both), the rule, the deadline and where the tables go. Checked on construction.
 */
public record SweepOptions(String model, String grid, List<Integer> executors, List<Integer> cores,
    List<Double> memoryGb, List<Double> inputGb, int replications, Integer apps, double targetCi, Long seed,
    int taskCpus, String rule, Double deadlineS, Statistic deadlineStat, int partitionsPerPoint, String output,
    String dagModels, String appId, String costs, List<Codec> codecs, List<SerializerKind> serializers) {

  /** Options without codec or serializer axes. */
  public SweepOptions(String model, String grid, List<Integer> executors, List<Integer> cores, List<Double> memoryGb,
      List<Double> inputGb, int replications, Integer apps, double targetCi, Long seed, int taskCpus, String rule,
      Double deadlineS, Statistic deadlineStat, int partitionsPerPoint, String output, String dagModels,
      String appId, String costs) {
    this(model, grid, executors, cores, memoryGb, inputGb, replications, apps, targetCi, seed, taskCpus, rule,
        deadlineS, deadlineStat, partitionsPerPoint, output, dagModels, appId, costs, List.of(), List.of());
  }

  /** Options without {@code --costs} (any rule but phase-cost). */
  public SweepOptions(String model, String grid, List<Integer> executors, List<Integer> cores, List<Double> memoryGb,
      List<Double> inputGb, int replications, Integer apps, double targetCi, Long seed, int taskCpus, String rule,
      Double deadlineS, Statistic deadlineStat, int partitionsPerPoint, String output, String dagModels,
      String appId) {
    this(model, grid, executors, cores, memoryGb, inputGb, replications, apps, targetCi, seed, taskCpus, rule,
        deadlineS, deadlineStat, partitionsPerPoint, output, dagModels, appId, null);
  }

  /** Options of a grid without input sizes. */
  public SweepOptions(String model, String grid, List<Integer> executors, List<Integer> cores, List<Double> memoryGb,
      int replications, Integer apps, double targetCi, Long seed, int taskCpus, String rule, Double deadlineS,
      Statistic deadlineStat, int partitionsPerPoint, String output, String dagModels, String appId) {
    this(model, grid, executors, cores, memoryGb, List.of(), replications, apps, targetCi, seed, taskCpus, rule,
        deadlineS, deadlineStat, partitionsPerPoint, output, dagModels, appId);
  }

  public SweepOptions {
    BadInputException.require((model == null) != (dagModels == null),
        "Cannot sweep: give exactly one of --model FILE and --dag-models DIR (%s, %s)", model, dagModels);
    BadInputException.require((dagModels == null) == (appId == null),
        "Cannot sweep: --dag-models and --app-id go together (%s, %s)", dagModels, appId);
    BadInputException.require(!PhaseCostRule.NAME.equals(rule) || (dagModels != null && costs != null),
        "Cannot sweep: --rule phase-cost needs --dag-models DIR and --costs ROOT (%s, %s)", dagModels, costs);
    executors = List.copyOf(executors);
    cores = List.copyOf(cores);
    memoryGb = List.copyOf(memoryGb);
    inputGb = List.copyOf(inputGb);
    codecs = List.copyOf(codecs);
    serializers = List.copyOf(serializers);
    boolean listed = !executors.isEmpty() || !cores.isEmpty() || !memoryGb.isEmpty() || !inputGb.isEmpty()
        || !codecs.isEmpty() || !serializers.isEmpty();
    BadInputException.require(grid == null || !listed, "Cannot sweep: give either --grid or --executors/--cores/"
        + "--executor-memory-gb/--input-gb/--codecs/--serializers, not both (%s)", grid);
    BadInputException.require((codecs.isEmpty() && serializers.isEmpty()) || PhaseCostRule.NAME.equals(rule),
        "Cannot sweep: --codecs and --serializers need --rule phase-cost (%s; rule %s ignores them)",
        codecs.isEmpty() ? "--serializers " + serializers.stream().map(SerializerKind::shortName).toList()
            : "--codecs " + codecs.stream().map(Codec::shortName).toList(), rule);
    for (double gb : inputGb) {
      BadInputException.require(gb > 0 && Double.isFinite(gb), "Cannot sweep: --input-gb must be > 0 (%s)", gb);
    }
    BadInputException.require(grid != null || (!executors.isEmpty() && !cores.isEmpty()),
        "Cannot sweep: no grid (give --grid FILE, or --executors and --cores)");
    BadInputException.require(partitionsPerPoint >= 1,
        "Cannot sweep: --partitions-per-point must be >= 1 (%d)", partitionsPerPoint);
    BadInputException.require(deadlineS == null || deadlineS > 0,
        "Cannot sweep: --deadline must be > 0 seconds (%s)", deadlineS);
  }

  /** The grid of the lists (executors, cores, memory, input sizes, codecs, serializers); {@code grid} must be null. */
  public Grid listedGrid() {
    return new Grid(executors, cores, memoryGb, inputGb.stream()
        .map(gb -> Math.max(1L, Math.round(gb * GridReader.BYTES_PER_GB))).toList(), codecs, serializers,
        replications);
  }
}
