package org.perflab.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The corpus command without running Spark: grid validation and {@code --dry-run}. */
class CorpusCommandTest {
  @TempDir Path temp;

  /** Output of one in-process {@code perflab} call. */
  private Scripts.Result perflab(String... args) {
    return Scripts.inProcess(args);
  }

  /** An executable that must never run: it records that it ran. */
  private Path launcher() throws IOException {
    Path script = temp.resolve("launcher");
    Files.writeString(script, "#!/bin/sh\ntouch \"" + temp.resolve("launcher-ran") + "\"\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    return script;
  }

  private Path grid(String json) throws IOException {
    return Files.writeString(temp.resolve("grid.json"), json);
  }

  @Test
  void aBadGridExitsTwoNamingTheFieldBeforeRunningAnything() throws IOException {
    Path events = temp.resolve("events");
    Scripts.Result run = perflab("corpus", "--grid", grid("""
        {"name": "bad", "sweeps": [{"workloads": ["sleep"], "executors": [0]}]}""").toString(),
        "--event-log-dir", events.toString(), "--submit", launcher().toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.stderr()).contains("Cannot read grid").contains("sweeps[0].executors[0] must be at least 1 (0)");
    assertThat(events).doesNotExist();
    assertThat(temp.resolve("launcher-ran")).doesNotExist();
  }

  @Test
  void aMissingGridFileExitsTwo() throws IOException {
    Scripts.Result run = perflab("corpus", "--grid", temp.resolve("nope.json").toString(), "--event-log-dir",
        temp.resolve("events").toString(), "--submit", launcher().toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.stderr()).contains("Cannot read grid " + temp.resolve("nope.json"));
  }

  @Test
  void dryRunPrintsThePrepareAndRunCommandsAndRunsNothing() throws IOException {
    Path launcher = launcher();
    Path events = temp.resolve("events");
    Path data = temp.resolve("data");
    Scripts.Result run = perflab("corpus", "--grid", grid("""
        {"name": "dry", "partitions": 3, "seed": 7, "prepareMaster": "local[2]",
         "conf": {"spark.eventLog.rolling.enabled": "false"},
         "sweeps": [{"workloads": ["wordcount", "sleep"], "coresPerExecutor": [2], "executorMemory": ["512m"]},
                    {"master": "yarn", "workloads": ["sort"], "executors": [4], "coresPerExecutor": [3]}]}
        """).toString(), "--event-log-dir", events.toString(), "--data-dir", data.toString(),
        "--submit", launcher.toString(), "--work-dir", temp.resolve("work").toString(), "--dry-run");
    assertThat(run.exitCode()).as(run.stderr()).isZero();
    String dataUri = "file:" + data;
    String common = " --conf spark.eventLog.enabled=true --conf spark.eventLog.dir=file:" + events;
    String tail = " workload --phase run --data-dir " + dataUri + " --partitions 3 --seed 7";
    // WordCount and Sort read the same text data set, so it is prepared once; Sleep needs none.
    assertThat(run.stdout().lines()).containsExactly(
        launcher + " --master 'local[2]' --conf spark.eventLog.enabled=false --conf spark.ui.enabled=false workload"
            + " --workload wordcount --scale tiny --phase prepare --data-dir " + dataUri + " --partitions 3 --seed 7",
        launcher + " --master 'local[2]' --driver-memory 512m" + common
            + " --conf spark.perflab.workload=wordcount --conf spark.perflab.scale=tiny"
            + " --conf spark.perflab.repetition=1 --conf spark.perflab.grid.point=wordcount-tiny-local-1x2-512m-r1"
            + " --conf spark.eventLog.rolling.enabled=false" + tail,
        launcher + " --master 'local[2]' --driver-memory 512m" + common
            + " --conf spark.perflab.workload=sleep --conf spark.perflab.scale=tiny"
            + " --conf spark.perflab.repetition=1 --conf spark.perflab.grid.point=sleep-tiny-local-1x2-512m-r1"
            + " --conf spark.eventLog.rolling.enabled=false" + tail,
        launcher + " --master yarn --executor-memory 1g --conf spark.executor.instances=4"
            + " --conf spark.executor.cores=3 --conf spark.dynamicAllocation.enabled=false" + common
            + " --conf spark.perflab.workload=sort --conf spark.perflab.scale=tiny"
            + " --conf spark.perflab.repetition=1 --conf spark.perflab.grid.point=sort-tiny-yarn-4x3-1g-r1"
            + " --conf spark.eventLog.rolling.enabled=false" + tail);
    assertThat(temp.resolve("launcher-ran")).doesNotExist();
    assertThat(events).doesNotExist();
  }
}
