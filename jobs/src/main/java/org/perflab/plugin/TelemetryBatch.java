package org.perflab.plugin;

import java.io.Serializable;
import java.util.List;

/**
 * What an executor sends to the driver once a second: its new GC records and its current status.
 *
 * @param executorId the sending executor's id ("driver" in local mode)
 * @param lines JSON lines, one GC record each, in the order recorded (may be empty)
 * @param status the executor's status when the batch was cut
 */
record TelemetryBatch(String executorId, List<String> lines, Status status) implements Serializable {

  /**
   * An executor's status. The driver keeps the latest per executor and writes it as the {@code executor_end} record
   * when the application stops: Spark stops driver plugins before executors, so an executor cannot report its own end.
   *
   * @param uptimeMs the executor JVM's uptime, milliseconds
   * @param gcCount the JVM's collection count since the plugin started, as of the previous batch (one interval
   *     earlier, so that collections whose notification is still in flight are not counted as missed)
   * @param gcTimeMs the JVM's collection time since the plugin started, as of the previous batch, milliseconds
   * @param recorded GC records created so far
   */
  record Status(long uptimeMs, long gcCount, long gcTimeMs, long recorded) implements Serializable {}
}
