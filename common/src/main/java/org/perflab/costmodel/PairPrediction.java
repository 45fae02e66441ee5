package org.perflab.costmodel;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.perflab.errors.BadInputException;

/**
 * Run B of a corpus pair predicted from run A (docs/costmodel.md#corpus-pairs): the pair differs in one setting, and
 * each stage the phase-cost rule models in A is predicted in B as A's measured duration × the model's stage time
 * under B's configuration ÷ under A's (stage time = waves × taskTime), and by the baseline rule, which ignores the
 * setting (the same slots, so A's duration). The job is the sum of the compared stages.
 */
public final class PairPrediction {
  /** The name of the job row of a pair. */
  public static final String JOB = "job";

  private PairPrediction() {}

  /** The setting a pair changes. */
  public enum Setting {
    MEMORY, PARTITIONS, CODEC;

    /** Parses a setting name, case-insensitive. */
    public static Setting parse(String text) {
      for (Setting s : values()) {
        if (s.name().equalsIgnoreCase(text.trim())) {
          return s;
        }
      }
      throw new BadInputException("Cannot read the pair setting: unknown (" + text + "; memory, partitions, codec)");
    }

    public String id() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * One run of a pair.
   *
   * @param appId application id
   * @param props its SPARK properties
   * @param stageSeconds measured duration of each executed Spark stage (last attempt), seconds, by simulator name
   *     {@code S<id>}
   * @param slots task slots of the run
   */
  public record Run(String appId, Map<String, String> props, Map<String, Double> stageSeconds, int slots) {
    public Run {
      props = Map.copyOf(props);
      stageSeconds = Map.copyOf(stageSeconds);
    }
  }

  /**
   * One predicted stage (or the {@link #JOB}) of run B.
   *
   * @param setting the setting the pair changes
   * @param appA the run predicted from
   * @param appB the run predicted
   * @param stage simulator stage name, or {@link #JOB}
   * @param measuredAS A's measured duration, seconds
   * @param measuredBS B's measured duration, seconds
   * @param phaseCostS the phase-cost prediction of B, seconds
   * @param baselineS the baseline rule's prediction of B (A's duration), seconds
   */
  public record Row(Setting setting, String appA, String appB, String stage, double measuredAS, double measuredBS,
      double phaseCostS, double baselineS) {

    /** |phase-cost − measured| ÷ measured, percent. */
    public double phaseCostErrorPct() {
      return errorPct(phaseCostS);
    }

    /** |baseline − measured| ÷ measured, percent. */
    public double baselineErrorPct() {
      return errorPct(baselineS);
    }

    private double errorPct(double predicted) {
      return measuredBS > 0 ? 100 * Math.abs(predicted - measuredBS) / measuredBS : Double.NaN;
    }
  }

  /**
   * The change from A's configuration to B's: executor memory, codec, serializer, cores and executors where they
   * differ, and B's configured shuffle partitions ({@link PhaseCostInputs#shufflePartitions}) where they differ.
   */
  public static WhatIf change(CostConfig a, Map<String, String> propsA, CostConfig b, Map<String, String> propsB) {
    Integer pa = PhaseCostInputs.shufflePartitions(propsA);
    Integer pb = PhaseCostInputs.shufflePartitions(propsB);
    return WhatIf.between(a, b, pb != null && !pb.equals(pa) ? pb : null);
  }

  /**
   * B's stages and job predicted from A's: the stages {@code a} models that both runs executed, then the job row.
   * Bad input when they share none.
   */
  public static List<Row> predict(Setting setting, Run a, PhaseCostInputs.Built built, Run b, CodecCostTable table) {
    PhaseCostRule rule = built.rule();
    CostConfig configB = PhaseCostInputs.source(b.props(), b.slots());
    WhatIf change = change(rule.source(), a.props(), configB, b.props());
    List<StageEstimate> before = CostModel.estimate(rule.source(), rule.stats(), rule.stages());
    List<StageEstimate> after = CostModel.whatIf(rule.source(), rule.stats(), rule.stages(), change, table);
    List<Row> rows = new ArrayList<>();
    double[] job = new double[4];
    for (int i = 0; i < before.size(); i++) {
      String name = before.get(i).spec().name();
      Double da = a.stageSeconds().get(name);
      Double db = b.stageSeconds().get(name);
      if (da == null || db == null) {
        continue;
      }
      double ns = before.get(i).stageNs();
      double predicted = ns > 0 ? da * after.get(i).stageNs() / ns : da;
      rows.add(new Row(setting, a.appId(), b.appId(), name, da, db, predicted, da));
      job[0] += da;
      job[1] += db;
      job[2] += predicted;
    }
    BadInputException.require(!rows.isEmpty(), "Cannot predict %s from %s: no modelled stage ran in both (%s; %s)",
        b.appId(), a.appId(), built.modelled(), b.stageSeconds().keySet());
    rows.add(new Row(setting, a.appId(), b.appId(), JOB, job[0], job[1], job[2], job[0]));
    return rows;
  }

  /**
   * Per setting: the pairs, and the mean |error| (percent) of the stages and of the jobs, phase-cost and baseline.
   *
   * @param setting the setting
   * @param pairs pairs (directions) predicted
   * @param stages stage predictions
   * @param stagePhaseCostPct mean stage |error| of the phase-cost rule, percent
   * @param stageBaselinePct mean stage |error| of the baseline rule, percent
   * @param jobPhaseCostPct mean job |error| of the phase-cost rule, percent
   * @param jobBaselinePct mean job |error| of the baseline rule, percent
   */
  public record Summary(Setting setting, int pairs, int stages, double stagePhaseCostPct, double stageBaselinePct,
      double jobPhaseCostPct, double jobBaselinePct) {

    /** One line of the printed table. */
    public String line() {
      return String.format(Locale.ROOT, "| %s | %d | %d | %.1f | %.1f | %.1f | %.1f |", setting.id(), pairs, stages,
          stagePhaseCostPct, stageBaselinePct, jobPhaseCostPct, jobBaselinePct);
    }
  }

  /** The header of {@link Summary#line()}'s table (Markdown). */
  public static final String SUMMARY_HEADER = "| setting | pairs | stages | stage |err| phase-cost % |"
      + " stage |err| baseline % | job |err| phase-cost % | job |err| baseline % |\n| --- | --- | --- | --- | --- |"
      + " --- | --- |";

  /** The summary of each setting present in {@code rows}, in {@link Setting} order. */
  public static List<Summary> summarise(List<Row> rows) {
    List<Summary> out = new ArrayList<>();
    for (Setting s : Setting.values()) {
      List<Row> mine = rows.stream().filter(r -> r.setting() == s).toList();
      if (mine.isEmpty()) {
        continue;
      }
      List<Row> stages = mine.stream().filter(r -> !JOB.equals(r.stage())).toList();
      List<Row> jobs = mine.stream().filter(r -> JOB.equals(r.stage())).toList();
      out.add(new Summary(s, jobs.size(), stages.size(), mean(stages, Row::phaseCostErrorPct),
          mean(stages, Row::baselineErrorPct), mean(jobs, Row::phaseCostErrorPct), mean(jobs, Row::baselineErrorPct)));
    }
    return out;
  }

  private static double mean(List<Row> rows, java.util.function.ToDoubleFunction<Row> f) {
    return rows.stream().mapToDouble(f).filter(Double::isFinite).average().orElse(Double.NaN);
  }

  /** The CSV header of {@link #csv(Row)}. */
  public static final String CSV_HEADER = "setting,app_a,app_b,stage,measured_a_s,measured_b_s,phase_cost_s,"
      + "baseline_s,phase_cost_error_pct,baseline_error_pct";

  /** One CSV line. */
  public static String csv(Row r) {
    return String.join(",", r.setting().id(), r.appA(), r.appB(), r.stage(), num(r.measuredAS()),
        num(r.measuredBS()), num(r.phaseCostS()), num(r.baselineS()), num(r.phaseCostErrorPct()),
        num(r.baselineErrorPct()));
  }

  private static String num(double v) {
    return Double.isFinite(v) ? String.format(Locale.ROOT, "%.3f", v) : "";
  }
}
