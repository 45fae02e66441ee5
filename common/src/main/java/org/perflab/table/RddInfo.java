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
            Column.structField("rdd_id", DataTypes.IntegerType),
            Column.structField("name", DataTypes.StringType),
            Column.structField("scope_name", DataTypes.StringType),
            Column.structField("callsite", DataTypes.StringType),
            Column.structField("parent_ids", DataTypes.createArrayType(DataTypes.IntegerType)),
            Column.structField("num_partitions", DataTypes.IntegerType),
            Column.structField("num_cached_partitions", DataTypes.IntegerType),
            Column.structField("storage_level", DataTypes.StringType),
            Column.structField("memory_size_bytes", DataTypes.LongType),
            Column.structField("disk_size_bytes", DataTypes.LongType)
          });

  static final DataType TYPE = DataTypes.createArrayType(STRUCT);
}
