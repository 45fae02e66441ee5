package org.perflab.spark.costmodel;

import org.perflab.costmodel.CodecCostTable;
import org.perflab.costmodel.CsvLines;
import org.perflab.costmodel.PairPrediction;
import org.perflab.costmodel.PhaseCostInputs;
import org.perflab.costmodel.WhatIf;
import static org.apache.spark.sql.functions.col;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.perflab.errors.BadInputException;
import org.perflab.sim.Model;
import org.perflab.spark.storage.TableStore;
import org.perflab.table.Table;

/**
 * Reads what {@link PairPrediction} needs for each corpus pair from an ingest root that also holds
 * {@code stage_costs}: both runs' SPARK properties and measured stage durations, and run A's phase-cost inputs. Only
 * these few rows reach the driver (docs/costmodel.md#corpus-pairs).
 */
public final class CostModelPairs {
  private CostModelPairs() {}

  /** A pair: run B predicted from run A, which differ in {@code setting}. */
  public record Pair(PairPrediction.Setting setting, String appA, String appB) {}

  /** The CSV header of a pairs file. */
  public static final String HEADER = "setting,app_a,app_b";

  /** Parses a pairs file: the header {@value #HEADER}, then one pair a line ({@code #} lines and blanks skipped). */
  public static List<Pair> parse(String text, String source) {
    List<Pair> out = new ArrayList<>();
    for (String[] f : CsvLines.rows(text, source, HEADER, 3)) {
      BadInputException.require(!f[1].isBlank() && !f[2].isBlank(), "Cannot read %s: a pair without both"
          + " applications (%s)", source, String.join(",", f));
      out.add(new Pair(PairPrediction.Setting.parse(f[0]), f[1].strip(), f[2].strip()));
    }
    BadInputException.require(!out.isEmpty(), "Cannot read %s: no pairs (%s, then one pair a line)", source, HEADER);
    return out;
  }

  /**
   * Every pair's predictions: run A's rule from its properties, its {@code stage_costs} under {@code root} and its
   * simulator model ({@code models}, by application id), predicted with {@code table}'s codec ratios.
   */
  public static Result predict(SparkSession spark, String root, List<Pair> pairs, Function<String, Model> models,
      CodecCostTable table) {
    List<PairPrediction.Row> rows = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    for (Pair p : pairs) {
      Model a = models.apply(p.appA());
      Model b = models.apply(p.appB());
      PhaseCostInputs.Built built = PhaseCostSource.build(spark, root, a, null, p.appA());
      PairPrediction.Run runA = run(spark, root, p.appA(), a);
      PairPrediction.Run runB = run(spark, root, p.appB(), b);
      WhatIf change = PairPrediction.change(built.rule().source(), runA.props(),
          PhaseCostInputs.source(runB.props(), runB.slots()), runB.props());
      notes.add(p.setting().id() + " " + p.appA() + " -> " + p.appB() + ": " + change + "; " + built.describe());
      rows.addAll(PairPrediction.predict(p.setting(), runA, built, runB, table));
    }
    return new Result(rows, notes);
  }

  /**
   * The predictions, and per pair one line: the what-if from A to B and what A's rule models.
   *
   * @param rows every stage and job prediction
   * @param notes one line per pair
   */
  public record Result(List<PairPrediction.Row> rows, List<String> notes) {}

  private static PairPrediction.Run run(SparkSession spark, String root, String appId, Model model) {
    return new PairPrediction.Run(appId, PhaseCostSource.properties(spark, root, null, appId),
        stageSeconds(spark, root, appId), model.nodes());
  }

  /** Duration of each completed stage's last attempt, seconds, by simulator name {@code S<id>}. */
  static Map<String, Double> stageSeconds(SparkSession spark, String root, String appId) {
    List<Row> rows = new TableStore(spark, root).read(Table.STAGES).orElseThrow(() -> new BadInputException(
            "Cannot predict the pairs: no stages table under " + root + " (the ingest output root)"))
        .where(col("app_id").equalTo(appId).and(col("status").equalTo("COMPLETE")))
        .orderBy(col("stage_id"), col("stage_attempt_id").desc()).select("stage_id", "duration_ms")
        .collectAsList();
    Map<String, Double> out = new HashMap<>();
    for (Row r : rows) {
      if (!r.isNullAt(1)) {
        out.putIfAbsent("S" + r.getInt(0), r.getLong(1) / 1000.0);
      }
    }
    BadInputException.require(!out.isEmpty(), "Cannot predict the pairs: application %s has no completed stage"
        + " under %s", appId, root);
    return out;
  }
}
