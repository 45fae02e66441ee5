package org.perflab.costmodel;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.perflab.sim.Model;
import org.perflab.sim.Stage;

/**
 * The inputs of {@link PhaseCostRule} for one measured run: its configuration from its Spark properties
 * ({@link SparkProperties}), and its statistics from its {@code stage_costs} rows (docs/costmodel.md, "sweep --rule
 * phase-cost"). Simulator stages are named {@code S<stageId>}. The model is run in on-disk bytes: the serializer's
 * ratio is the run's spill disk ÷ memory ratio (1 when nothing spilled), codec and serializer CPU are 0 because the
 * fitted ShuffleWrite and read costs already include them, and each stage's shuffle selectivities are folded into
 * dsComputeRecsSel (the only identifiable form). A stage is modelled when it has a {@code stage_costs} row and every
 * stage whose shuffle it reads (the shuffle-writing Spark stages it waits for) is modelled; the other Spark
 * stages keep their durations and are listed in {@link Built#kept()}; delay stages (startup, driver-*, sched-*) always
 * keep theirs.
 */
public final class PhaseCostInputs {
  private static final Pattern LOCAL = Pattern.compile("local\\[(\\d+|\\*)(,\\d+)?]");
  /** A Spark stage of a simulator model; the others are delay stages (startup, driver-*, sched-*). */
  private static final Pattern STAGE = Pattern.compile("S\\d+");

  private PhaseCostInputs() {}

  /**
   * One {@code stage_costs} row: the stage and its columns (ns/byte, ns/record, bytes/record, ratios; null when not
   * estimated), by column name.
   */
  public record StageCostRow(int stageId, int tasks, Map<String, Double> values, List<Double> sizeRatios) {
    public StageCostRow {
      values = java.util.Collections.unmodifiableMap(new HashMap<>(values));
      sizeRatios = sizeRatios == null ? List.of() : List.copyOf(sizeRatios);
    }

    /** A row without the spread of its tasks' sizes ({@code stage_costs.task_size_ratios}). */
    public StageCostRow(int stageId, int tasks, Map<String, Double> values) {
      this(stageId, tasks, values, List.of());
    }

    Double get(String column) {
      return values.get(column);
    }
  }

  /**
   * The rule and what it covers.
   *
   * @param rule the phase-cost rule of the run
   * @param modelled the simulator stages whose durations the rule rescales
   * @param kept the simulator stages that keep their durations, each with why
   * @param unestimated the cost statistics no stage estimated (taken as 0, or from a sibling as documented)
   */
  public record Built(PhaseCostRule rule, List<String> modelled, Map<String, String> kept, List<String> unestimated) {
    /** One line for a job's summary. */
    public String describe() {
      return String.format("phase-cost: %d of %d Spark stages modelled (delay stages keep their durations); kept"
          + " their durations: %s; not estimated: %s",
          modelled.size(), modelled.size() + kept.size(), kept.isEmpty() ? "none" : kept,
          unestimated.isEmpty() ? "none" : unestimated);
    }
  }

  /**
   * The rule for the run {@code base} models, from its Spark properties and its {@code stage_costs} rows (one per
   * stage id, its last attempt).
   */
  public static Built build(Model base, Map<String, String> props, List<StageCostRow> rows) {
    CostConfig source = source(props, base.nodes());
    Map<String, StageCostRow> byName = new HashMap<>();
    rows.forEach(r -> byName.put("S" + r.stageId(), r));
    Double spilled = weightedOrNull(rows, "spill_disk_ratio");
    double ratio = spilled != null && spilled > 0 ? spilled : 1;
    List<String> unestimated = new ArrayList<>();
    ClusterStats stats = new ClusterStats(costs(rows, unestimated),
        Map.of(source.codec(), new CodecCosts(1, 0, 0)),
        Map.of(source.serializer(), new SerializerCosts(ratio, 0)));
    Integer confPartitions = shufflePartitions(props);
    Map<String, StageSpec> specs = new LinkedHashMap<>();
    Map<String, String> kept = new LinkedHashMap<>();
    Map<String, Stage> stages = new HashMap<>();
    base.stages().forEach(s -> stages.put(s.name(), s));
    for (Stage s : topological(base.stages())) {
      StageCostRow row = byName.get(s.name());
      if (!STAGE.matcher(s.name()).matches()) {
        continue;
      }
      if (row == null) {
        kept.put(s.name(), "no stage_costs row");
        continue;
      }
      boolean reads = row.get("shuffle_read_pair_width_bytes") != null;
      List<String> parents = new ArrayList<>();
      String unknown = null;
      for (String a : nearestWriters(s, stages, byName)) {
        StageSpec p = specs.get(a);
        StageCostRow r = byName.get(a);
        if (p != null && p.shuffleWrite()) {
          parents.add(a);
        } else if (p == null && (r == null || r.get("shuffle_write_pair_width_bytes") != null)) {
          unknown = a;
        }
      }
      if (reads && (unknown != null || parents.isEmpty())) {
        kept.put(s.name(), unknown != null ? "parent " + unknown + " not modelled" : "no modelled stage writes its"
            + " shuffle");
      } else {
        specs.put(s.name(), spec(s, row, ratio, reads ? parents : List.of(), confPartitions));
      }
    }
    return new Built(new PhaseCostRule(source, stats, List.copyOf(specs.values()), 0), List.copyOf(specs.keySet()),
        kept, unestimated);
  }

  /**
   * The run's configuration: its properties; in local mode one executor with local[N]'s N cores and the driver's
   * heap (spark.driver.memory, when set), otherwise the model's slots ÷ slots per executor executors (at least 1).
   */
  public static CostConfig source(Map<String, String> props, int slots) {
    Map<String, String> p = new HashMap<>(props);
    Matcher local = LOCAL.matcher(p.getOrDefault("spark.master", ""));
    if (local.matches() && !p.containsKey("spark.executor.cores")) {
      String n = local.group(1);
      p.put("spark.executor.cores", n.equals("*") ? String.valueOf(Math.max(1, slots)) : n);
    }
    // In local mode the tasks run in the driver's JVM: its heap is spark.driver.memory.
    if (local.matches() && p.containsKey("spark.driver.memory")) {
      p.put("spark.executor.memory", p.get("spark.driver.memory"));
    }
    CostConfig one = SparkProperties.config(p, 1);
    int executors = local.matches() ? 1 : Math.max(1, slots / Math.max(1, one.slotsPerExecutor()));
    return one.withExecutors(executors);
  }

  private static CostStats costs(List<StageCostRow> rows, List<String> unestimated) {
    Function<String, Double> cost = c -> {
      Double v = weightedOrNull(rows, c);
      if (v == null) {
        unestimated.add(c);
      }
      return v;
    };
    Double hdfs = cost.apply("hdfs_read_ns_per_byte");
    Double local = cost.apply("local_read_ns_per_byte");
    Double network = cost.apply("network_ns_per_byte");
    Double compute = cost.apply("compute_ns_per_record");
    Double write = cost.apply("shuffle_write_ns_per_byte");
    Double fixed = cost.apply("fixed_ns_per_task");
    // measured outside the run time (stage-costs' overhead_ns_per_task): the per-task cost that makes many small
    // tasks slower than few large ones, which the fitted fixed cost, inside the run time, rarely separates
    Double overhead = cost.apply("overhead_ns_per_task");
    // A local-mode run fetches nothing remotely, a cluster run may read nothing locally: each stands in for the other.
    double localNs = local != null ? local : network != null ? network : 0;
    double networkNs = network != null ? network : localNs;
    return new CostStats(orZero(hdfs), localNs, orZero(write), networkNs, orZero(compute), 0, 0, 0, 0, orZero(fixed),
        orZero(overhead));
  }

  /**
   * The shuffle-writing Spark stages {@code s} waits for, looking through delay stages and through Spark stages that
   * write no shuffle (a job's result stage before the next job, whose reduce stage may read a shuffle an earlier job
   * wrote: its own map stage was skipped). Stages without a row count as writers (unknown).
   */
  private static List<String> nearestWriters(Stage s, Map<String, Stage> stages, Map<String, StageCostRow> rows) {
    List<String> out = new ArrayList<>();
    java.util.Deque<String> todo = new java.util.ArrayDeque<>(s.pre());
    java.util.Set<String> seen = new java.util.HashSet<>();
    while (!todo.isEmpty()) {
      String p = todo.pop();
      if (!seen.add(p)) {
        continue;
      }
      StageCostRow r = rows.get(p);
      boolean writer = STAGE.matcher(p).matches()
          && (r == null || r.get("shuffle_write_pair_width_bytes") != null);
      if (writer) {
        out.add(p);
      } else if (stages.containsKey(p)) {
        todo.addAll(stages.get(p).pre());
      }
    }
    return out;
  }

  /**
   * The shuffle partitions the run configured: spark.sql.shuffle.partitions, else spark.default.parallelism; null
   * when it set neither (or not as a positive integer).
   */
  public static Integer shufflePartitions(Map<String, String> props) {
    for (String key : List.of("spark.sql.shuffle.partitions", "spark.default.parallelism")) {
      String v = props.get(key);
      if (v != null && v.trim().matches("\\d{1,9}") && Integer.parseInt(v.trim()) > 0) {
        return Integer.parseInt(v.trim());
      }
    }
    return null;
  }

  /**
   * A stage's spec; a shuffle-reading stage takes its task count from the configuration when the run configured no
   * shuffle partitions or its tasks are that number (a global aggregate's single reduce task is not).
   */
  private static StageSpec spec(Stage s, StageCostRow row, double ratio, List<String> parents,
      Integer confPartitions) {
    double inWidth = orOne(row.get("read_in_pair_width_bytes"));
    double readWidth = orOne(row.get("shuffle_read_pair_width_bytes")) / ratio;
    Double written = row.get("shuffle_write_pair_width_bytes");
    boolean writes = written != null;
    double computeIn = parents.isEmpty() ? inWidth : readWidth;
    double recsSel = writes ? orOne(row.get("records_selectivity")) : 1;
    double outWidth = writes ? written / ratio : computeIn;
    DataStats data = new DataStats(inWidth, recsSel, recsSel * outWidth / computeIn, 1, 1, 1, readWidth, 1, 1, 1, 1,
        outWidth);
    double split = (double) s.inputBytes() / s.tasks();
    // Fewer records out than in: the write combined map-side (reduceByKey), so no bypass merge sort.
    boolean fromConf = !parents.isEmpty() && (confPartitions == null || confPartitions == s.tasks());
    return new StageSpec(s.name(), s.tasks(), split, parents, ReadSide.SORT, writes, recsSel < 1, fromConf, data,
        row.sizeRatios());
  }

  /** The stages, parents first (the simulator model lists them in any order). */
  private static List<Stage> topological(List<Stage> stages) {
    List<Stage> out = new ArrayList<>();
    List<String> done = new ArrayList<>();
    List<Stage> left = new ArrayList<>(stages);
    while (!left.isEmpty()) {
      Stage next = left.stream().filter(s -> done.containsAll(s.pre())).findFirst().orElse(left.get(0));
      left.remove(next);
      out.add(next);
      done.add(next.name());
    }
    return out;
  }

  /** Σ value × tasks ÷ Σ tasks over the rows that have the column; null when none has it. */
  private static Double weightedOrNull(List<StageCostRow> rows, String column) {
    double sum = 0;
    double tasks = 0;
    for (StageCostRow r : rows) {
      Double v = r.get(column);
      if (v != null && Double.isFinite(v)) {
        sum += v * r.tasks();
        tasks += r.tasks();
      }
    }
    return tasks > 0 ? sum / tasks : null;
  }

  private static double orZero(Double v) {
    return v == null ? 0 : v;
  }

  private static double orOne(Double v) {
    return v == null || v <= 0 ? 1 : v;
  }
}
