package org.perflab.spark.findings;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.perflab.spark.ingest.SparkTestSession;

/** A finding's settings cut to the keys its run's Spark version reads. */
class VersionedSettingsTest {
  private static final StructType FINDINGS = new StructType().add("log_id", DataTypes.StringType)
      .add("recommendation", DataTypes.StringType)
      .add("recommended_conf", DataTypes.createMapType(DataTypes.StringType, DataTypes.StringType));
  private static final StructType STATUS = new StructType().add("log_id", DataTypes.StringType)
      .add("spark_version", DataTypes.StringType);
  private static final Map<String, String> SKEW = Map.of("spark.sql.adaptive.enabled", "true",
      "spark.sql.adaptive.skewJoin.enabled", "true");
  private static final Map<String, String> FEW = Map.of("spark.sql.shuffle.partitions", "64",
      "spark.sql.files.maxPartitionBytes", "8388608");

  @Test
  void keysAVersionDoesNotReadAreLeftOutAndNamed() {
    SparkSession spark = SparkTestSession.get();
    List<Row> findings = List.of(RowFactory.create("spark15", "Skew.", SKEW), RowFactory.create("spark15-few", "Few.",
        FEW), RowFactory.create("spark24", "Skew.", SKEW), RowFactory.create("spark35", "Skew.", SKEW),
        RowFactory.create("unknown", "Skew.", SKEW));
    List<Row> status = List.of(RowFactory.create("spark15", "1.5.1"), RowFactory.create("spark15-few", "1.5.1"),
        RowFactory.create("spark24", "2.4.8"), RowFactory.create("spark35", "3.5.1"),
        RowFactory.create("spark35", "3.5.1"), RowFactory.create("unknown", null));

    Map<String, Row> out = new java.util.HashMap<>();
    VersionedSettings.apply(spark.createDataFrame(findings, FINDINGS),
        VersionedSettings.versions(spark.createDataFrame(status, STATUS)))
        .collectAsList().forEach(r -> out.put(r.getAs("log_id"), r));

    assertThat(out).hasSize(5);
    assertThat(out.get("spark15").<scala.collection.Map<String, String>>getAs("recommended_conf").isEmpty()).isTrue();
    assertThat(out.get("spark15").<String>getAs("recommendation")).isEqualTo("Skew. (Spark 1.5.1 does not read"
        + " spark.sql.adaptive.enabled, spark.sql.adaptive.skewJoin.enabled: left out of the settings.)");
    assertThat(out.get("spark15-few").<scala.collection.Map<String, String>>getAs("recommended_conf").keySet()
        .mkString(",")).isEqualTo("spark.sql.shuffle.partitions");
    assertThat(out.get("spark24").<String>getAs("recommendation")).startsWith("Skew. (Spark 2.4.8 does not read");
    for (String kept : List.of("spark35", "unknown")) {
      assertThat(out.get(kept).<scala.collection.Map<String, String>>getAs("recommended_conf").size()).as(kept)
          .isEqualTo(2);
      assertThat(out.get(kept).<String>getAs("recommendation")).as(kept).isEqualTo("Skew.");
    }
  }
}
