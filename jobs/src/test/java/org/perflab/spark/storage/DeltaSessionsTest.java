package org.perflab.spark.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

class DeltaSessionsTest {
  @Test
  void deltaExtensionIsAppendedToTheUsersOwnAndNeverTwice() {
    assertThat(DeltaSessions.withDeltaExtension("")).isEqualTo(DeltaSessions.DELTA_EXTENSION);
    assertThat(DeltaSessions.withDeltaExtension("com.acme.Ext"))
        .isEqualTo("com.acme.Ext," + DeltaSessions.DELTA_EXTENSION);
    assertThat(DeltaSessions.withDeltaExtension(" com.acme.Ext , " + DeltaSessions.DELTA_EXTENSION + ",x.Y"))
        .isEqualTo("com.acme.Ext," + DeltaSessions.DELTA_EXTENSION + ",x.Y");
  }

  @Test
  void aUsersOwnSessionCatalogAndSettingsAreKept() {
    SparkConf user = new SparkConf(false)
        .set(DeltaSessions.EXTENSIONS, "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions")
        .set(DeltaSessions.SESSION_CATALOG, "org.apache.iceberg.spark.SparkSessionCatalog")
        .set("spark.databricks.delta.snapshotPartitions", "64")
        .set(DeltaSessions.HDFS_COMPLETE_DELAY, "400")
        .set("spark.hadoop.fs.file.impl", "org.apache.hadoop.fs.LocalFileSystem");

    Map<String, String> settings = DeltaSessions.settings(user);

    assertThat(settings).doesNotContainKey(DeltaSessions.SESSION_CATALOG)
        .doesNotContainKey("spark.databricks.delta.snapshotPartitions")
        .doesNotContainKey(DeltaSessions.HDFS_COMPLETE_DELAY)
        .doesNotContainKey("spark.hadoop.fs.file.impl")
        .containsEntry("spark.hadoop.fs.AbstractFileSystem.file.impl", "org.perflab.fs.PosixLocalFs")
        .containsEntry(DeltaSessions.HDFS_COMPLETE_RETRIES, "10")
        .containsEntry(DeltaSessions.EXTENSIONS,
            "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions," + DeltaSessions.DELTA_EXTENSION);
  }

  @Test
  void withoutUserSettingsDeltasCatalogAndCompactionSettingsAreAdded() {
    Map<String, String> settings = DeltaSessions.settings(new SparkConf(false));

    assertThat(settings)
        .containsEntry(DeltaSessions.SESSION_CATALOG, DeltaSessions.DELTA_CATALOG)
        .containsEntry("spark.databricks.delta.autoCompact.minNumFiles",
            Integer.toString(DeltaSessions.AUTO_COMPACT_MIN_FILES))
        .containsEntry("spark.databricks.delta.optimize.maxFileSize", Long.toString(DeltaSessions.TARGET_FILE_BYTES))
        .containsEntry(DeltaSessions.HDFS_COMPLETE_DELAY, "10")
        .containsEntry(DeltaSessions.HDFS_COMPLETE_RETRIES, "10")
        .containsEntry("spark.hadoop.fs.file.impl", "org.perflab.fs.PosixLocalFileSystem")
        .containsEntry("spark.hadoop.fs.AbstractFileSystem.file.impl", "org.perflab.fs.PosixLocalFs");
    assertThat(DeltaSessions.deltaVersion()).matches("\\d+\\.\\d+\\.\\d+.*");
  }
}
