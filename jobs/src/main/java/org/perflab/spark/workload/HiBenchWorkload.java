package org.perflab.spark.workload;

import java.util.Locale;
import java.util.function.Supplier;

/**
 * PerfLab's Spark implementations of HiBench's workloads. {@link #id()} is the name used on the command line, in grid
 * files and in the {@code spark.perflab.workload} tag; {@link #hibenchName()} is HiBench's directory name.
 */
public enum HiBenchWorkload {
  SORT(HiBenchCategory.MICRO, "sort", "text", TextWorkloads.Sort::new),
  WORDCOUNT(HiBenchCategory.MICRO, "wordcount", "text", TextWorkloads.WordCount::new),
  TERASORT(HiBenchCategory.MICRO, "terasort", "terasort", TeraSortWorkload::new),
  REPARTITION(HiBenchCategory.MICRO, "repartition", "text", TextWorkloads.Repartition::new),
  /** Not a HiBench workload: C3O's grep, map-only, its input growing with {@code --partitions}. */
  GREP(HiBenchCategory.MICRO, "grep", "grep", TextWorkloads.Grep::new),
  SLEEP(HiBenchCategory.MICRO, "sleep", "sleep", SleepWorkload::new),
  /** Not a HiBench workload: like tasks with injected stragglers, for scoring straggler detectors. */
  STRAGGLERS(HiBenchCategory.MICRO, "stragglers", "stragglers", StragglerWorkload::new),
  KMEANS(HiBenchCategory.ML, "kmeans", "kmeans", KMeansWorkload::new),
  SVM(HiBenchCategory.ML, "svm", "svm", SvmWorkload::new),
  PAGERANK(HiBenchCategory.WEBSEARCH, "pagerank", "pagerank", PageRankWorkload::new),
  NWEIGHT(HiBenchCategory.GRAPH, "nweight", "nweight", NWeightWorkload::new),
  SCAN(HiBenchCategory.SQL, "scan", "uservisits", () -> new SqlWorkload(SqlWorkload.Query.SCAN)),
  JOIN(HiBenchCategory.SQL, "join", "uservisits", () -> new SqlWorkload(SqlWorkload.Query.JOIN)),
  AGGREGATION(HiBenchCategory.SQL, "aggregation", "uservisits", () -> new SqlWorkload(SqlWorkload.Query.AGGREGATION));

  private final HiBenchCategory category;
  private final String hibenchName;
  private final String dataset;
  private final Supplier<WorkloadRunner> runner;

  HiBenchWorkload(HiBenchCategory category, String hibenchName, String dataset, Supplier<WorkloadRunner> runner) {
    this.category = category;
    this.hibenchName = hibenchName;
    this.dataset = dataset;
    this.runner = runner;
  }

  public HiBenchCategory category() {
    return category;
  }

  /** Lower-case id, e.g. {@code wordcount}. */
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** HiBench's directory name under {@code bin/workloads/<category>/}. */
  public String hibenchName() {
    return hibenchName;
  }

  /**
   * Name of the prepared data set. HiBenchDefaults with the same data set share prepared data (Sort, WordCount and
   * Repartition read random text; the SQL workloads read rankings and uservisits).
   */
  public String dataset() {
    return dataset;
  }

  public WorkloadRunner runner() {
    return runner.get();
  }

  /** Parses a workload id, case-insensitively; the message lists the valid ids. */
  public static HiBenchWorkload parse(String text) {
    for (HiBenchWorkload workload : values()) {
      if (workload.id().equalsIgnoreCase(text.trim())) {
        return workload;
      }
    }
    throw new IllegalArgumentException("Cannot parse workload: unknown name (" + text + "; valid: " + validIds() + ")");
  }

  public static String validIds() {
    StringBuilder ids = new StringBuilder();
    for (HiBenchWorkload workload : values()) {
      ids.append(ids.length() == 0 ? "" : ", ").append(workload.id());
    }
    return ids.toString();
  }
}
