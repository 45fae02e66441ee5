package org.perflab.plugin;

import org.apache.spark.api.plugin.DriverPlugin;
import org.apache.spark.api.plugin.ExecutorPlugin;
import org.apache.spark.api.plugin.SparkPlugin;

/**
 * PerfLab's Tier B memory telemetry (issue 12; reference 004 §4.2), shipped in the application jar and turned on with
 * {@code --conf spark.plugins=org.perflab.plugin.MemoryTelemetryPlugin}.
 *
 * <p>Every executor records each garbage collection from JMX ({@link GcTelemetryExecutorPlugin}) and sends the records
 * to the driver; the driver records block updates and task memory metrics from a SparkListener
 * ({@link BlockTelemetryListener}) and writes everything as JSON lines next to the event log, in
 * {@code <spark.eventLog.dir>/<appId>[_<attemptId>].perflab-telemetry/} ({@link TelemetryDriverPlugin}). The format
 * is in docs/memory-telemetry.md; {@code org.perflab.memory.gc.TelemetryReader} reads it. No configuration value is
 * ever written.
 */
public final class MemoryTelemetryPlugin implements SparkPlugin {
  @Override
  public DriverPlugin driverPlugin() {
    return new TelemetryDriverPlugin();
  }

  @Override
  public ExecutorPlugin executorPlugin() {
    return new GcTelemetryExecutorPlugin();
  }
}
