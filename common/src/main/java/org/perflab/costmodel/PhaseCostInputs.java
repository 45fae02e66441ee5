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
 * stage it waits for is modelled; the others keep their durations and are listed in {@link Built#kept()}.
 */
public final class PhaseCostInputs {
  private static final Pattern LOCAL = Pattern.compile("local\\[(\\d+|\\*)(,\\d+)?]");

  private PhaseCostInputs() {}

  /**
   * One {@code stage_costs} row: the stage and its columns (ns/byte, ns/record, bytes/record, ratios; null when not
   * estimated), by column name.
   */
  public record StageCostRow(int stageId, int tasks, Map<String, Double> values) {
    public StageCostRow {
      values = java.util.Collections.unmodifiableMap(new HashMap<>(values));
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
      return String.format("phase-cost: %d of %d stages modelled; kept their durations: %s; not estimated: %s",
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
    Map<String, StageSpec> specs = new LinkedHashMap<>();
    Map<String, String> kept = new LinkedHashMap<>();
    for (Stage s : topological(base.stages())) {
      StageCostRow row = byName.get(s.name());
      String missingParent = s.pre().stream().filter(p -> !specs.containsKey(p) || !specs.get(p).shuffleWrite())
          .findFirst().orElse(null);
      if (row == null) {
        kept.put(s.name(), "no stage_costs row");
      } else if (missingParent != null) {
        kept.put(s.name(), "parent " + missingParent + " not modelled");
      } else {
        specs.put(s.name(), spec(s, row, ratio));
      }
    }
    return new Built(new PhaseCostRule(source, stats, List.copyOf(specs.values()), 0), List.copyOf(specs.keySet()),
        kept, unestimated);
  }

  /**
   * The run's configuration: its properties; in local mode one executor with local[N]'s N cores, otherwise the
   * model's slots ÷ slots per executor executors (at least 1).
   */
  static CostConfig source(Map<String, String> props, int slots) {
    Map<String, String> p = new HashMap<>(props);
    Matcher local = LOCAL.matcher(p.getOrDefault("spark.master", ""));
    if (local.matches() && !p.containsKey("spark.executor.cores")) {
      String n = local.group(1);
      p.put("spark.executor.cores", n.equals("*") ? String.valueOf(Math.max(1, slots)) : n);
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
    // A local-mode run fetches nothing remotely, a cluster run may read nothing locally: each stands in for the other.
    double localNs = local != null ? local : network != null ? network : 0;
    double networkNs = network != null ? network : localNs;
    return new CostStats(orZero(hdfs), localNs, orZero(write), networkNs, orZero(compute), 0, 0, 0, 0, orZero(fixed),
        0);
  }

  private static StageSpec spec(Stage s, StageCostRow row, double ratio) {
    double inWidth = orOne(row.get("read_in_pair_width_bytes"));
    double readWidth = orOne(row.get("shuffle_read_pair_width_bytes")) / ratio;
    Double written = row.get("shuffle_write_pair_width_bytes");
    boolean writes = written != null;
    double computeIn = s.pre().isEmpty() ? inWidth : readWidth;
    double recsSel = writes ? orOne(row.get("records_selectivity")) : 1;
    double outWidth = writes ? written / ratio : computeIn;
    DataStats data = new DataStats(inWidth, recsSel, recsSel * outWidth / computeIn, 1, 1, 1, readWidth, 1, 1, 1, 1,
        outWidth);
    double split = (double) s.inputBytes() / s.tasks();
    // Fewer records out than in: the write combined map-side (reduceByKey), so no bypass merge sort.
    return new StageSpec(s.name(), s.tasks(), split, s.pre(), ReadSide.SORT, writes, recsSel < 1, !s.pre().isEmpty(),
        data);
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
