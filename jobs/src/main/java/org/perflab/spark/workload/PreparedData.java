package org.perflab.spark.workload;

import java.util.Properties;
import org.apache.spark.sql.SparkSession;

/**
 * Prepared data sets and their marker file. A data set is prepared when its marker names the same data set, scale,
 * seed and partitions; the marker also records the input bytes that tag the measured run.
 */
public final class PreparedData {
  private static final String BYTES = "input.bytes";
  private final DataFiles files;

  public PreparedData(DataFiles files) {
    this.files = files;
  }

  /** Whether {@code spec}'s data set is prepared with the same generator settings. */
  public boolean isPrepared(WorkloadSpec spec) {
    if (!spec.workload().runner().needsInput()) {
      return true;
    }
    Properties marker = files.readProperties(spec.preparedMarker());
    return marker != null && identity(spec).entrySet().stream()
        .allMatch(entry -> entry.getValue().equals(marker.getProperty((String) entry.getKey())));
  }

  /** Generates {@code spec}'s data set from scratch and writes its marker; returns the input bytes. */
  public long prepare(SparkSession spark, WorkloadSpec spec) {
    WorkloadRunner runner = spec.workload().runner();
    if (!runner.needsInput()) {
      return 0L;
    }
    files.delete(spec.datasetDir());
    runner.prepare(spark, spec);
    long bytes = files.bytes(spec.inputDir());
    Properties marker = identity(spec);
    marker.setProperty(BYTES, Long.toString(bytes));
    files.writeProperties(spec.preparedMarker(), marker);
    return bytes;
  }

  /** Input bytes of a prepared data set (0 for workloads without input). */
  public long inputBytes(WorkloadSpec spec) {
    if (!spec.workload().runner().needsInput()) {
      return 0L;
    }
    Properties marker = files.readProperties(spec.preparedMarker());
    return marker == null ? files.bytes(spec.inputDir()) : Long.parseLong(marker.getProperty(BYTES, "0"));
  }

  /** Deletes the run's previous output, so the run writes a fresh one. */
  public void clearOutput(WorkloadSpec spec) {
    files.delete(spec.outputDir());
  }

  private static Properties identity(WorkloadSpec spec) {
    Properties properties = new Properties();
    properties.setProperty("dataset", spec.workload().dataset());
    properties.setProperty("scale", spec.scale().profileName());
    properties.setProperty("seed", Long.toString(spec.seed()));
    properties.setProperty("partitions", Integer.toString(spec.partitions()));
    return properties;
  }
}
