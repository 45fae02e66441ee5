package org.perflab.spark.clustering;


import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.perflab.table.KeyColumns;

/** The tables {@code cluster} writes (documented in docs/tables.md) and the tables it reads. */
public final class ClusterTables {
  private ClusterTables() {}

  /** What {@code cluster} reads: the features it clusters, and the findings it summarises when they exist. */
  public static final String APP_FEATURES = "app_features";
  public static final String FINDINGS = "findings";

  public static final String APP_CLUSTERS_TABLE = "app_clusters";
  public static final String CENTERS_TABLE = "cluster_centers";
  public static final String SUMMARY_TABLE = "cluster_summary";
  public static final String SELECTION_TABLE = "cluster_selection";

  /** Every table {@code cluster} writes, in the order it writes them. */
  public static final List<String> NAMES = List.of(APP_CLUSTERS_TABLE, CENTERS_TABLE, SUMMARY_TABLE, SELECTION_TABLE);

  public static final String CLUSTER_ID = "cluster_id";
  public static final String CENTER = "center";

  public static final StructType APP_CLUSTERS = new StructType(new StructField[] {
    field(KeyColumns.LOG_ID, DataTypes.StringType, false),
    field(KeyColumns.APP_ID, DataTypes.StringType, false),
    field(KeyColumns.APP_ATTEMPT_ID, DataTypes.StringType, false),
    field(ClusterFeature.WORKLOAD_ID, DataTypes.StringType, false),
    field(CLUSTER_ID, DataTypes.IntegerType, false),
    field("distance", DataTypes.DoubleType, false),
  });

  public static final StructType CENTERS = new StructType(new StructField[] {
    field(CLUSTER_ID, DataTypes.IntegerType, false),
    field("size", DataTypes.LongType, false),
    field(CENTER, DataTypes.createMapType(DataTypes.StringType, DataTypes.DoubleType, false), false),
  });

  public static final StructType SUMMARY = new StructType(new StructField[] {
    field(CLUSTER_ID, DataTypes.IntegerType, false),
    field("size", DataTypes.LongType, false),
    field("median_wall_time_s", DataTypes.DoubleType, true),
    field("p90_wall_time_s", DataTypes.DoubleType, true),
    field("dominant_workloads", DataTypes.createArrayType(DataTypes.StringType, true), false),
    field("dominant_workload_share", DataTypes.DoubleType, false),
    field("dominant_findings", DataTypes.createArrayType(DataTypes.StringType, true), true),
  });

  public static final StructType SELECTION = new StructType(new StructField[] {
    field("k", DataTypes.IntegerType, false),
    field("silhouette", DataTypes.DoubleType, false),
    field("chosen", DataTypes.BooleanType, false),
    field("seed", DataTypes.LongType, false),
    field("applications", DataTypes.LongType, false),
  });

  /**
   * {@code rows} with exactly the columns of {@code schema}, in its order, cast to its types and with its nullability
   * (a null in a required column fails the write: a bug, not bad input).
   */
  static Dataset<Row> conform(Dataset<Row> rows, StructType schema) {
    return org.perflab.spark.storage.TableStore.conform(rows, schema);
  }

  private static StructField field(String name, DataType type, boolean nullable) {
    return DataTypes.createStructField(name, type, nullable);
  }
}
