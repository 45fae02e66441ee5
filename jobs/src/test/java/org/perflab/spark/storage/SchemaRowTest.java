package org.perflab.spark.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

class SchemaRowTest {
  private static final StructType SCHEMA = new StructType()
      .add("a", DataTypes.StringType)
      .add("b", DataTypes.LongType)
      .add("c", DataTypes.DoubleType);

  @Test
  void valuesLandInTheSchemaOrderWhateverTheOrderTheyAreSetIn() {
    Row row = SchemaRow.of(SCHEMA).set("c", 2.5).set("a", "x").row();

    assertThat(row.size()).isEqualTo(3);
    assertThat(row.getString(0)).isEqualTo("x");
    assertThat(row.isNullAt(1)).isTrue();
    assertThat(row.getDouble(2)).isEqualTo(2.5);
  }

  @Test
  void aNameNotInTheSchemaFailsInsteadOfShiftingColumns() {
    assertThatThrownBy(() -> SchemaRow.of(SCHEMA).set("d", 1L)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aBuiltRowDoesNotChangeWhenTheBuilderIsSetAgain() {
    SchemaRow builder = SchemaRow.of(SCHEMA).set("b", 1L);
    Row first = builder.row();
    Row second = builder.set("b", 2L).row();

    assertThat(first.getLong(1)).isEqualTo(1L);
    assertThat(second.getLong(1)).isEqualTo(2L);
  }
}
