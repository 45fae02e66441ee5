package org.perflab.table;

import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/** The element type of {@code stages.rdds}: one RDD of a stage's lineage. */
public final class RddInfo {
  private RddInfo() {}

  /** Field order of an RDD struct; values are built positionally in this order. */
  public static final StructType STRUCT =
      new StructType(
          new StructField[] {
            field("rdd_id", DataTypes.IntegerType),
            field("name", DataTypes.StringType),
            field("scope_name", DataTypes.StringType),
            field("callsite", DataTypes.StringType),
            field("parent_ids", DataTypes.createArrayType(DataTypes.IntegerType)),
            field("num_partitions", DataTypes.IntegerType),
            field("num_cached_partitions", DataTypes.IntegerType),
            field("storage_level", DataTypes.StringType),
            field("memory_size_bytes", DataTypes.LongType),
            field("disk_size_bytes", DataTypes.LongType)
          });

  static final DataType TYPE = DataTypes.createArrayType(STRUCT);

  private static StructField field(String name, DataType type) {
    return DataTypes.createStructField(name, type, true);
  }
}
