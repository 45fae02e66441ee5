package org.perflab.spark.costmodel;

import org.perflab.spark.environment.EffectiveProperties;
import org.perflab.costmodel.PhaseCostInputs;
import static org.apache.spark.sql.functions.col;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.perflab.errors.BadInputException;
import org.perflab.eventlog.SparkVersion;
import org.perflab.sim.Model;
import org.perflab.spark.storage.TableStore;
import org.perflab.table.Table;

/**
 * Reads what {@link PhaseCostInputs} needs for one run from a root holding the ingest {@code properties} table and
 * {@code stage_costs}: the run's SPARK properties and, per stage id, its last attempt's cost row. Only these few
 * rows reach the driver.
 */
public final class PhaseCostSource {
  private static final List<String> COLUMNS = List.of("fixed_ns_per_task", StageCosts.OVERHEAD, "hdfs_read_ns_per_byte",
      "local_read_ns_per_byte", "network_ns_per_byte", "compute_ns_per_record", "shuffle_write_ns_per_byte",
      "read_in_pair_width_bytes", "shuffle_read_pair_width_bytes", "shuffle_write_pair_width_bytes",
      "records_selectivity", "spill_disk_ratio");

  private PhaseCostSource() {}

  /** The rule of run {@code appId} (of log {@code logId}; null: any log) whose simulator model is {@code base}. */
  public static PhaseCostInputs.Built build(SparkSession spark, String root, Model base, String logId, String appId) {
    TableStore store = new TableStore(spark, root);
    Dataset<Row> costs = store.read(StageCosts.TABLE).orElseThrow(() -> new BadInputException(
        "Cannot use rule phase-cost: no stage_costs table under " + root + " (run perflab stage-costs first)"));
    Map<String, String> sparkProps = properties(spark, root, logId, appId);
    List<Row> rows = run(costs, logId, appId).orderBy(col("stage_id"), col("stage_attempt_id").desc()).collectAsList();
    Map<Integer, PhaseCostInputs.StageCostRow> last = new HashMap<>();
    for (Row r : rows) {
      last.putIfAbsent(r.<Integer>getAs("stage_id"), row(r));
    }
    BadInputException.require(!sparkProps.isEmpty() || !last.isEmpty(), "Cannot use rule phase-cost: neither properties"
        + " nor stage_costs rows for application %s under %s", appId, root);
    return PhaseCostInputs.build(base, sparkProps, List.copyOf(last.values()));
  }

  /**
   * The SPARK properties of run {@code appId} (of log {@code logId}; null: any log) in the ingest root, with its Spark
   * version under {@link SparkVersion#PROPERTY} when {@code applications} declares one, so that the cost model takes
   * that version's defaults and memory manager ({@link org.perflab.costmodel.SparkProperties#config}).
   */
  public static Map<String, String> properties(SparkSession spark, String root, String logId, String appId) {
    TableStore store = new TableStore(spark, root);
    Dataset<Row> props = EffectiveProperties.spark(store).orElseThrow(() ->
        new BadInputException("Cannot use rule phase-cost: no properties table under " + root
            + " (the ingest output root)"));
    Map<String, String> sparkProps = new HashMap<>();
    for (Row r : run(props, logId, appId).select("key", "value").collectAsList()) {
      sparkProps.put(r.getString(0), r.getString(1));
    }
    store.read(Table.APPLICATIONS).ifPresent(apps -> run(apps, logId, appId).where(col("spark_version").isNotNull())
        .select("spark_version").limit(1).collectAsList()
        .forEach(r -> sparkProps.put(SparkVersion.PROPERTY, r.getString(0))));
    return sparkProps;
  }

  private static Dataset<Row> run(Dataset<Row> table, String logId, String appId) {
    Dataset<Row> r = table.where(col("app_id").equalTo(appId));
    return logId == null ? r : r.where(col("log_id").equalTo(logId));
  }

  private static PhaseCostInputs.StageCostRow row(Row r) {
    Map<String, Double> values = new HashMap<>();
    List<String> have = Arrays.asList(r.schema().fieldNames());
    for (String c : COLUMNS) {
      // a stage_costs table written before a column existed has none
      Object v = have.contains(c) ? r.getAs(c) : null;
      if (v != null) {
        values.put(c, ((Number) v).doubleValue());
      }
    }
    List<Double> sizes = have.contains(StageCosts.SIZE_RATIOS) && !r.isNullAt(r.fieldIndex(StageCosts.SIZE_RATIOS))
        ? r.<Double>getList(r.fieldIndex(StageCosts.SIZE_RATIOS)) : List.of();
    return new PhaseCostInputs.StageCostRow(r.<Integer>getAs("stage_id"), r.<Integer>getAs("tasks"), values, sizes);
  }
}
