package org.perflab.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code submit/local-cluster} alone: a Master and two Workers as separate JVMs, a job on two executors through
 * {@code submit/perflab} that runs tasks on both, and a stop that leaves no process behind. Tagged {@code long}
 * ({@code mvn verify -Plong}): {@link NightlyClusterIT}, in CI, makes the same checks of the script around the cluster
 * it starts for the nightly, and its Worker-kill fault runs tasks on both executors.
 */
@Tag("long")
class LocalClusterIT {
  private static final String PERFLAB = LocalClusterChecks.REPOSITORY.resolve("submit/perflab").toString();
  private static final Duration TIMEOUT = Duration.ofMinutes(3);

  @Test
  void startsTwoWorkersRunsAJobOnTwoExecutorsAndStopsEverything(@TempDir Path temp) throws Exception {
    Path state = temp.resolve("cluster state");
    try {
      Scripts.Result started = LocalClusterChecks.localCluster(Map.of(), "start", "--workers", "2", "--worker-cores",
          "1", "--worker-memory", "1g", "--state-dir", state.toString());
      assertThat(started.exitCode()).as(started.stderr()).isZero();
      String masterUrl = started.lastLine();
      LocalClusterChecks.assertRunning(state, masterUrl, 2, 1);

      Scripts.Result doctor = Scripts.run(temp, Map.of(), TIMEOUT, PERFLAB, "--master", masterUrl,
          "--conf", "spark.driver.host=127.0.0.1", "--total-executor-cores", "2", "--executor-cores", "1",
          "--executor-memory", "512m", "doctor", "--executors", "2");
      assertThat(doctor.exitCode()).as(doctor.stderr()).isZero();
      assertThat(doctor.stdout()).contains("master: " + masterUrl)
          .contains("executors: 2")
          .contains("tasks_ran_on_executors: [0, 1]");
    } finally {
      LocalClusterChecks.stopAndAssertGone(state);
    }
  }

  /**
   * Daemons started with Java Flight Recorder (SPARK_DAEMON_JAVA_OPTS) do not map the runtime's class-data archive, and
   * the script says so: OpenJDK 17 with both crashes loading a class (docs/operations.md, "Class-data sharing").
   */
  @Test
  void daemonsThatRecordWithFlightRecorderStartWithoutTheArchiveAndSaySo(@TempDir Path temp) throws Exception {
    Path state = temp.resolve("cluster state");
    Path logs = Files.createDirectories(temp.resolve("class-logs"));
    String options = "-XX:StartFlightRecording -Xlog:class+load=info:file=" + logs.resolve("daemon-%p.log");
    try {
      Scripts.Result started = LocalClusterChecks.localCluster(Map.of("SPARK_DAEMON_JAVA_OPTS", options), "start",
          "--workers", "1", "--worker-cores", "1", "--worker-memory", "1g", "--state-dir", state.toString());
      assertThat(started.exitCode()).as(started.stderr()).isZero();
      assertThat(started.stderr()).contains("local-cluster: class-data sharing is off for the master and workers");
      LocalClusterChecks.assertRunning(state, started.lastLine(), 1, 1);

      List<String> classLogs = new ArrayList<>();
      try (Stream<Path> files = Files.list(logs)) {
        for (Path file : files.toList()) {
          classLogs.add(Files.readString(file));
        }
      }
      // The JDK's own classes still come from the JDK's default archive; Spark's come from their jars.
      assertThat(classLogs).hasSizeGreaterThanOrEqualTo(2)
          .noneSatisfy(log -> assertThat(log).contains("org.apache.spark.deploy.master.Master source: shared objects"))
          .anySatisfy(log -> assertThat(log).containsPattern("deploy\\.master\\.Master source: \\S*spark-core_"))
          .anySatisfy(log -> assertThat(log).containsPattern("deploy\\.worker\\.Worker source: \\S*spark-core_"));
    } finally {
      LocalClusterChecks.stopAndAssertGone(state);
    }
  }
}
