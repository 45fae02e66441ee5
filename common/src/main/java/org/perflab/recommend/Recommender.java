package org.perflab.recommend;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.perflab.prediction.Configuration;
import org.perflab.prediction.Estimate;
import org.perflab.prediction.Harness;
import org.perflab.prediction.InnerErrors;
import org.perflab.prediction.Measured;
import org.perflab.prediction.Predictor;
import org.perflab.prediction.Run;
import org.perflab.prediction.Target;

/**
 * The recommendation for one workload and input-size class: candidates predicted ({@link #predict}, or given by the
 * simulator sweep), priced at the memory to be set, ranked ({@link Ranking}), and the first turned into a row with
 * its shuffle partitions ({@link ShufflePartitions}), dynamic-allocation bounds ({@link DynamicAllocation}) and
 * {@code spark-submit} arguments ({@link SubmitArgs}). Pure: no Spark, no I/O.
 */
public final class Recommender {
  private Recommender() {}

  /**
   * What is known about one workload and size class.
   *
   * @param workloadId the workload
   * @param sizeClass the size class
   * @param inputBytes the class's median input bytes
   * @param runs the class's runs
   * @param memory the memory to set ({@link Memory#executorMemoryBytes()} null: each candidate's observed memory)
   * @param shuffleBytes median shuffle bytes read per run of the class, bytes; null when unknown
   * @param notes further evidence (findings, scaling fit), already in words
   * @param sparkVersion the Spark version whose keys the arguments use ({@link SubmitArgs#of}); null unknown
   */
  public record Subject(String workloadId, int sizeClass, long inputBytes, int runs, Memory memory, Long shuffleBytes,
      List<String> notes, String sparkVersion) implements java.io.Serializable {
    /** A subject of an unknown Spark version: today's keys. */
    public Subject(String workloadId, int sizeClass, long inputBytes, int runs, Memory memory, Long shuffleBytes,
        List<String> notes) {
      this(workloadId, sizeClass, inputBytes, runs, memory, shuffleBytes, notes, null);
    }
  }

  /**
   * Predicts {@code configurations} at {@code inputBytes} with {@code predictor} trained on {@code training}; the 80 %
   * interval is the prediction times the 10th and 90th percentiles of the predictor's inner actual ÷ predicted
   * ratios on the training configurations ({@link InnerErrors#interval}). Configurations it cannot predict are left
   * out. A predictor that does not model the configuration ({@link Predictor#modelsConfiguration()}: {@code nearest})
   * predicts only the training's own configurations, each at its measured median runtime: it would give an
   * unmeasured configuration a measured neighbour's runtime, so that the cheaper of the two always looked as fast,
   * and the objective would pick a configuration with fewer cores than the one whose runtime it copied.
   */
  public static List<Candidate> predict(Predictor predictor, List<Run> training, List<Configuration> configurations,
      long inputBytes) {
    List<Measured> measured = Harness.configurations(training);
    InnerErrors inner = InnerErrors.of(predictor, measured);
    List<Candidate> out = new ArrayList<>();
    for (Configuration c : configurations) {
      Estimate e = predictor.modelsConfiguration() ? predictor.predict(measured, new Target(c, inputBytes))
          : measuredRuntime(measured, c);
      if (!e.present()) {
        continue;
      }
      double[] interval = e.hasOwnInterval() ? new double[] {e.lowS(), e.highS()} : inner.interval(e.predictedS());
      out.add(new Candidate(c.executors(), c.coresPerExecutor(), c.executorMemoryBytes(), e.predictedS(),
          interval == null ? null : interval[0], interval == null ? null : interval[1]));
    }
    return out;
  }

  /** The measured median runtime of {@code configuration}, or none when it was not measured. */
  private static Estimate measuredRuntime(List<Measured> measured, Configuration configuration) {
    return measured.stream().filter(m -> m.configuration().equals(configuration)).findFirst()
        .map(m -> Estimate.of(m.actualS())).orElseGet(() -> Estimate.none(String.format(Locale.ROOT, "Cannot "
            + "rank an unmeasured configuration by a lookup: %s was not measured (a measured configuration)",
            configuration)));
  }

  /** Ranks {@code candidates} and builds the row. */
  public static Recommendation recommend(Subject s, List<Candidate> candidates, String predictor,
      String predictorEvidence, Objective objective, Prices prices) {
    List<Priced> priced = candidates.stream().map(c -> Priced.of(c, s.memory(), prices)).toList();
    String evidence = evidence(s, predictorEvidence, priced.size());
    if (priced.isEmpty()) {
      return Recommendation.none(s.workloadId(), s.sizeClass(), s.inputBytes(), s.runs(), 0, prices.unit(),
          objective.describe(), predictor, evidence, "Cannot recommend a configuration: " + predictor
              + " predicts none of the candidate configurations (at least 1)");
    }
    Ranking ranking = Ranking.rank(priced, objective);
    if (ranking.chosen().isEmpty()) {
      return Recommendation.none(s.workloadId(), s.sizeClass(), s.inputBytes(), s.runs(), priced.size(),
          prices.unit(), objective.describe(), predictor, evidence, ranking.reason());
    }
    return row(s, ranking.chosen().get(), priced.size(), objective, prices, predictor, evidence);
  }

  private static Recommendation row(Subject s, Priced p, int candidates, Objective objective, Prices prices,
      String predictor, String evidence) {
    Candidate c = p.candidate();
    int partitions = ShufflePartitions.of(s.shuffleBytes(), c.totalCores());
    DynamicAllocation bounds = DynamicAllocation.around(c.executors());
    return new Recommendation(s.workloadId(), s.sizeClass(), s.inputBytes(), s.runs(), candidates, c.executors(),
        c.coresPerExecutor(), p.memory().executorMemoryBytes(), p.memory().overheadBytes(), partitions,
        bounds.minExecutors(), bounds.maxExecutors(), c.predictedS(), c.lowS(), c.highS(), p.coreHours(),
        p.gbHours(), p.cost(), prices.unit(), objective.describe(), predictor,
        SubmitArgs.of(c, p.memory(), partitions, bounds, s.sparkVersion()), evidence, null);
  }

  private static String evidence(Subject s, String predictorEvidence, int candidates) {
    List<String> parts = new ArrayList<>();
    parts.add("predictor: " + predictorEvidence);
    parts.add(String.format(Locale.ROOT, "candidates: %d configurations", candidates));
    parts.add("memory: " + s.memory().source());
    parts.add(Optional.ofNullable(s.shuffleBytes()).map(b -> String.format(Locale.ROOT,
        "shuffle: %d bytes read per run (median), %d MiB per partition aimed at", b, ShufflePartitions.TARGET_BYTES
            >> 20)).orElse(String.format(Locale.ROOT, "shuffle: bytes unknown, %d tasks per core",
        ShufflePartitions.TASKS_PER_CORE_UNKNOWN)));
    parts.addAll(s.notes());
    return String.join("; ", parts);
  }
}
