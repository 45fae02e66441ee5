package org.perflab.table;

import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;

/**
 * One column of a PerfLab table: its name, Spark type, unit and meaning. The unit is also written into the Parquet
 * schema as field metadata, so readers of the files see it.
 *
 * @param name snake_case name; a unit suffix ({@code _ms}, {@code _ns}, {@code _bytes}) where the value has a unit
 * @param type Spark SQL type
 * @param unit unit of the value, or an empty string for identifiers, names, flags and counts
 * @param description one sentence on what the value means
 */
public record Column(String name, DataType type, String unit, String description) {

  static Column string(String name, String description) {
    return new Column(name, DataTypes.StringType, "", description);
  }

  static Column integer(String name, String description) {
    return new Column(name, DataTypes.IntegerType, "", description);
  }

  static Column count(String name, String description) {
    return new Column(name, DataTypes.LongType, "count", description);
  }

  static Column int64(String name, String unit, String description) {
    return new Column(name, DataTypes.LongType, unit, description);
  }

  static Column float64(String name, String unit, String description) {
    return new Column(name, DataTypes.DoubleType, unit, description);
  }

  static Column flag(String name, String description) {
    return new Column(name, DataTypes.BooleanType, "", description);
  }

  static Column epochMs(String name, String description) {
    return new Column(name, DataTypes.LongType, "epoch ms UTC", description);
  }

  static Column of(String name, DataType type, String unit, String description) {
    return new Column(name, type, unit, description);
  }

  /** A nullable field of a struct column's element type, such as {@link RddInfo#STRUCT}. */
  static StructField structField(String name, DataType type) {
    return DataTypes.createStructField(name, type, true);
  }

  /** The Spark field, nullable, with {@code unit} and {@code comment} metadata. */
  public StructField field() {
    Metadata metadata = new MetadataBuilder().putString("unit", unit).putString("comment", description).build();
    return new StructField(name, type, true, metadata);
  }
}
