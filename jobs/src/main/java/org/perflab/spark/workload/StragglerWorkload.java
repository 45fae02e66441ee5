package org.perflab.spark.workload;

import java.util.Iterator;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.spark.Partitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import scala.Tuple2;

/**
 * Stages of like tasks with known stragglers, for scoring straggler detectors. A warm-up job of a few tasks, one job
 * without injection (a map and a reduce stage), then {@link InjectionSpec#stages()} injected jobs: for map-side
 * injections (GC, CPU, SLEEP) a single stage, for reduce-side ones (DATA_SKEW, SPILL) a map stage and the reduce
 * stage that holds the injection.
 * Every stage has {@link WorkloadSpec#partitions()} tasks. Each injected job's description reads
 * {@code perflab-inject type=GC stage=0 partitions=3,17,40}; the injected stage is the last stage of that job.
 *
 * <p>Prints one {@value #GROUND_TRUTH_LINE} line per injected task on stdout, with the stage id Spark gave it.
 */
final class StragglerWorkload implements WorkloadRunner.WithoutInput {
  /** Printed on stdout per injected task: {@code stage_id=, stage_attempt_id=, task_index=, injection=, cause=}. */
  static final String GROUND_TRUTH_LINE = "perflab.workload.injection ";
  /** Records each task works on, by scale. */
  static final ScaleTable RECORDS = ScaleTable.of(50_000, 100_000, 200_000, 400_000, 800_000, 1_600_000);
  /** SplitMix64 rounds per record of a map-side task: the like work of every task (about 0.1 s CPU at tiny). */
  static final int MAP_ROUNDS = 300;
  /** SplitMix64 rounds per record aggregated by a reduce task, on top of reading and aggregating it. */
  static final int ROUNDS = 24;
  /** Tasks of the warm-up job, so that the measured stages do not pay for class loading and JIT compilation. */
  static final int WARM_UP_TASKS = 4;
  /** Distinct keys of a reduce partition without SPILL injection, so its aggregation map stays tiny. */
  static final int KEYS = 64;
  /** Objects the GC injection keeps alive at once, so young collections copy them (about 80 bytes each). */
  static final int GC_LIVE_OBJECTS = 400_000;
  /** Objects the GC injection allocates per record and per unit of the factor. */
  static final int GC_OBJECTS_PER_RECORD = 30;

  @Override
  public WorkloadResult run(SparkSession spark, WorkloadSpec spec) {
    JavaSparkContext context = JavaSparkContext.fromSparkContext(spark.sparkContext());
    InjectionSpec injection = spec.injection();
    int partitions = spec.partitions();
    long records = (long) RECORDS.at(spec.scale());
    context.setJobDescription("perflab-stragglers warm-up");
    mapJob(spark, spec, WARM_UP_TASKS, records, new TreeSet<>());
    reduceJob(spark, spec, WARM_UP_TASKS, records, new TreeSet<>());
    context.setJobDescription("perflab-stragglers base");
    long outputs = reduceJob(spark, spec, partitions, records, new TreeSet<>());
    for (int stage = 0; stage < injection.stages(); stage++) {
      TreeSet<Integer> injected = injection.partitions(spec.seed(), stage, partitions);
      String group = "perflab-inject-" + stage;
      context.setJobGroup(group, description(injection.type(), stage, injected), false);
      outputs += injection.type().side() == Injection.Side.MAP
          ? mapJob(spark, spec, partitions, records, injected)
          : reduceJob(spark, spec, partitions, records, injected);
      context.clearJobGroup();
      printGroundTruth(injection.type(), injectedStage(context, group), injected);
    }
    return new WorkloadResult(HiBenchWorkload.STRAGGLERS, outputs,
        "inject=" + injection.type().id() + " injected_tasks=" + injection.stages() * injection.tasks());
  }

  /** The job description of an injected job, naming the type and the injected partitions. */
  static String description(Injection type, int stage, Set<Integer> injected) {
    return "perflab-inject type=" + type.name() + " stage=" + stage + " partitions="
        + injected.stream().map(String::valueOf).collect(Collectors.joining(","));
  }

  /** The last stage of the group's job: the one that holds the injection. */
  private static int injectedStage(JavaSparkContext context, String group) {
    int stage = -1;
    for (int job : context.statusTracker().getJobIdsForGroup(group)) {
      for (int id : context.statusTracker().getJobInfo(job).stageIds()) {
        stage = Math.max(stage, id);
      }
    }
    return stage;
  }

  private static void printGroundTruth(Injection type, int stageId, Set<Integer> injected) {
    for (int partition : injected) {
      System.out.println(GROUND_TRUTH_LINE + "stage_id=" + stageId + " stage_attempt_id=0 task_index=" + partition
          + " injection=" + type.name() + " cause=" + type.expectedCause());
    }
  }

  /** One stage of like tasks; the injected ones get the map-side injection. Returns the task count. */
  private static long mapJob(
      SparkSession spark, WorkloadSpec spec, int partitions, long records, Set<Integer> injected) {
    InjectionSpec injection = spec.injection();
    long seed = spec.seed();
    return Generators.partitionSeeds(spark, partitions)
        .map(partition -> injected.contains(partition)
            ? InjectedWork.map(injection, seed, partition, records)
            : InjectedWork.records(seed, partition, records, MAP_ROUNDS))
        .count();
  }

  /**
   * A map stage of {@code partitions} tasks writing {@code records} per reduce partition in all, and a reduce stage
   * aggregating by key; the injected reduce partitions get the reduce-side injection. Returns the aggregated keys.
   */
  private static long reduceJob(
      SparkSession spark, WorkloadSpec spec, int partitions, long records, Set<Integer> injected) {
    Injection type = spec.injection().type();
    long perTarget = Math.max(1, records / partitions);
    long skewed = Math.round(perTarget * spec.injection().factor());
    long seed = spec.seed();
    JavaPairRDD<Long, Long> shuffled = Generators.partitionSeeds(spark, partitions)
        .flatMapToPair(mapper -> shuffleRecords(seed, mapper, partitions, target -> injected.contains(target)
            ? (type == Injection.DATA_SKEW ? skewed : -perTarget) : perTarget));
    return shuffled.combineByKey(
            value -> InjectedWork.mix(value, ROUNDS), (sum, value) -> sum + InjectedWork.mix(value, ROUNDS),
            Long::sum, new TargetPartitioner(partitions), false, null)
        .count();
  }

  /** Records per target partition; negative: that many records with all-distinct keys (the SPILL injection). */
  @FunctionalInterface
  interface TargetCounts extends java.io.Serializable {
    long of(int target);
  }

  /**
   * A map task's records, {@code |counts.of(t)|} for each target partition t: keys carry t in their high bits and,
   * in the low bits, one of {@link #KEYS} keys, or a key of their own when the count is negative.
   */
  private static Iterator<Tuple2<Long, Long>> shuffleRecords(long seed, int mapper, int partitions,
      TargetCounts counts) {
    return new Iterator<>() {
      private int target;
      private long index;

      @Override
      public boolean hasNext() {
        while (target < partitions && index >= Math.abs(counts.of(target))) {
          target++;
          index = 0;
        }
        return target < partitions;
      }

      @Override
      public Tuple2<Long, Long> next() {
        if (!hasNext()) {
          throw new java.util.NoSuchElementException();
        }
        long count = counts.of(target);
        long high = (long) target << 40;
        long low = count < 0 ? mapper * -count + index : index % KEYS;
        index++;
        return new Tuple2<>(high | low, Generators.mix(seed, mapper, high | index));
      }
    };
  }

  /** Sends a key to the partition in its high bits, so the workload decides which partition reads what. */
  static final class TargetPartitioner extends Partitioner {
    private final int partitions;

    TargetPartitioner(int partitions) {
      this.partitions = partitions;
    }

    @Override
    public int numPartitions() {
      return partitions;
    }

    @Override
    public int getPartition(Object key) {
      return (int) ((Long) key >>> 40);
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof TargetPartitioner that && that.partitions == partitions;
    }

    @Override
    public int hashCode() {
      return partitions;
    }
  }
}
