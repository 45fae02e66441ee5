package org.perflab.costmodel;

import java.io.Serializable;
import java.util.List;
import org.perflab.errors.BadInputException;

/**
 * One stage as the cost model sees it: which phases its tasks run and with which data statistics.
 *
 * @param name the stage's name (unique in a plan)
 * @param tasks pCurrentTaskNum (≥ 1)
 * @param splitBytes pSplitSize, bytes each task reads from storage; 0 when the stage has no Read phase
 * @param parents the stages whose shuffle output this stage reads (empty: no ShuffleRead phase); with several
 *     parents (a join) the stage reads the sum of their outputs, a rule the reference leaves open (§7.7)
 * @param readSide how fetched records are handled (ignored without parents)
 * @param shuffleWrite true for a ShuffleMapStage (ShuffleWrite phase), false for a ResultStage (Func phase)
 * @param mapSideCombine whether the shuffle-inducing transformation combines map-side (reduceByKey: true)
 * @param partitionsFromConf whether {@code tasks} is set by spark.sql.shuffle.partitions /
 *     spark.default.parallelism, so that a what-if on partitions changes it (a stage with parents only)
 * @param data the stage's data statistics
 * @param sizeRatios the spread of the stage's task sizes: task sizes at equally weighted quantiles, each ÷ the mean
 *     task's (empty: every task is the mean task). A task's phases are not linear in its size (a buffer spills or
 *     not), so the stage's task time is the mean of the task times at these sizes ({@link CostModel}); PerfLab's
 *     addition to the reference, which models the average task only
 */
public record StageSpec(String name, int tasks, double splitBytes, List<String> parents, ReadSide readSide,
    boolean shuffleWrite, boolean mapSideCombine, boolean partitionsFromConf, DataStats data, List<Double> sizeRatios)
    implements Serializable {

  /** A stage whose tasks are all the same size. */
  public StageSpec(String name, int tasks, double splitBytes, List<String> parents, ReadSide readSide,
      boolean shuffleWrite, boolean mapSideCombine, boolean partitionsFromConf, DataStats data) {
    this(name, tasks, splitBytes, parents, readSide, shuffleWrite, mapSideCombine, partitionsFromConf, data,
        List.of());
  }

  public StageSpec {
    parents = List.copyOf(parents);
    sizeRatios = sizeRatios == null ? List.of() : List.copyOf(sizeRatios);
    BadInputException.require(sizeRatios.stream().allMatch(r -> r != null && Double.isFinite(r) && r >= 0),
        "Cannot model stage %s: a task size ratio is negative or not finite (%s; ≥ 0)", name, sizeRatios);
    BadInputException.require(tasks >= 1, "Cannot model stage %s: fewer than one task (%d; ≥ 1)", name, tasks);
    BadInputException.require(splitBytes >= 0 && Double.isFinite(splitBytes),
        "Cannot model stage %s: split size negative (%s bytes; ≥ 0)", name, splitBytes);
  }

  /** Whether the stage has a ShuffleRead phase. */
  public boolean readsShuffle() {
    return !parents.isEmpty();
  }

  /** The same stage with another task count; the tasks' sizes keep their spread around the new mean. */
  public StageSpec withTasks(int newTasks) {
    return new StageSpec(name, newTasks, splitBytes, parents, readSide, shuffleWrite, mapSideCombine,
        partitionsFromConf, data, sizeRatios);
  }

  /** One task of {@code ratio} times the mean task's size: the split scaled, no spread. */
  StageSpec scaled(double ratio) {
    return new StageSpec(name, tasks, splitBytes * ratio, parents, readSide, shuffleWrite, mapSideCombine,
        partitionsFromConf, data, List.of());
  }
}
