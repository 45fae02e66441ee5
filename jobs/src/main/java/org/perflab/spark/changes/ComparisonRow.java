package org.perflab.spark.changes;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.expressions.GenericRowWithSchema;

/**
 * One row of the {@code comparisons} table ({@link ChangeTables#COMPARISONS}): one difference or one aligned stage of
 * a compared pair. Amounts are in {@code unit}; the change is B − A and the ratio B ÷ A, null when either amount is
 * unknown (or A is 0, for the ratio).
 *
 * @param pair the runs compared
 * @param kind what the row compares
 * @param position the row's place among the pair's rows of its kind (stages in run order)
 * @param item what is compared: a total ({@code wall_time_s}), a property key, a data metric ({@code input_bytes}),
 *     a stage's name
 * @param valueA A's property value (configuration rows; null when unset)
 * @param valueB B's property value
 * @param amountA A's amount (run and data rows; a stage's duration in s); null when A lacks it
 * @param amountB B's amount
 * @param unit the amounts' unit, null for configuration rows
 * @param match a stage row's match; null for other rows
 * @param stageA A's stage (stage rows; null when B added it)
 * @param stageB B's stage (stage rows; null when A's was removed)
 * @param comparedAtMs when the row was written, epoch ms UTC
 */
public record ComparisonRow(ComparedPair pair, ComparisonKind kind, int position, String item, String valueA,
    String valueB, Double amountA, Double amountB, String unit, StageMatch match, StageTimes stageA,
    StageTimes stageB, long comparedAtMs) {
  /** The stage columns of the table, in its order: {@code attempts_a, attempts_b, tasks_a, ...}. */
  private static final List<Function<StageTimes, Object>> STAGE_COLUMNS = List.of(StageTimes::attempts,
      StageTimes::tasks, StageTimes::taskTimeS, StageTimes::cpuS, StageTimes::gcS, StageTimes::shuffleReadS,
      StageTimes::shuffleWriteS, StageTimes::spillBytes, StageTimes::schedulerDelayS);

  /** A run or data row: an amount of each run. */
  static ComparisonRow amounts(ComparedPair pair, ComparisonKind kind, int position, String item, double a, double b,
      String unit, long nowMs) {
    return new ComparisonRow(pair, kind, position, item, null, null, a, b, unit, null, null, null, nowMs);
  }

  /** B − A, null when either is unknown. */
  public Double change() {
    return amountA == null || amountB == null ? null : amountB - amountA;
  }

  /** B ÷ A, null when either is unknown or A is 0. */
  public Double ratio() {
    return amountA == null || amountB == null || amountA == 0 ? null : amountB / amountA;
  }

  /** The row in the table's schema. */
  public Row toRow() {
    List<Object> v = new ArrayList<>(List.of(pair.a().logId(), pair.a().appId(), pair.b().logId(),
        pair.b().appId(), pair.a().workloadId(), pair.b().workloadId(), kind.name(), position, item));
    v.add(valueA);
    v.add(valueB);
    v.add(amountA);
    v.add(amountB);
    v.add(unit);
    v.add(change());
    v.add(ratio());
    v.add(match == null ? null : match.name());
    v.add(stageA == null ? null : stageA.ref().stageId());
    v.add(stageB == null ? null : stageB.ref().stageId());
    StageTimes either = stageB != null ? stageB : stageA;
    v.add(either == null || either.ref().jobOrdinal() < 0 ? null : either.ref().jobOrdinal());
    addSides(v, stageA, stageB);
    v.add(comparedAtMs);
    return new GenericRowWithSchema(v.toArray(), ChangeTables.COMPARISONS);
  }

  /** The stage columns, each as its A then its B value. */
  private static void addSides(List<Object> v, StageTimes a, StageTimes b) {
    for (Function<StageTimes, Object> column : STAGE_COLUMNS) {
      v.add(a == null ? null : column.apply(a));
      v.add(b == null ? null : column.apply(b));
    }
  }
}
