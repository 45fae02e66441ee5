package org.perflab.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code submit/hibench-sweep --dry-run}: the commands it would run and the HiBench conf files it writes. */
class HibenchSweepTest {
  private static final Path REPOSITORY = Scripts.repository();
  private static final String SWEEP = REPOSITORY.resolve("submit/hibench-sweep").toString();
  private static final Duration TIMEOUT = Duration.ofMinutes(2);
  private static final Map<String, String> CATEGORY = Map.of("wordcount", "micro", "svm", "ml", "kmeans", "ml",
      "pagerank", "websearch", "nweight", "graph");

  /** Parses a HiBench conf file as HiBench's loader does: key, whitespace, value; '#' starts a comment line. */
  static Map<String, String> parseHibenchConf(Path file) throws IOException {
    Map<String, String> values = new HashMap<>();
    for (String line : Files.readAllLines(file)) {
      String trimmed = line.strip();
      if (trimmed.isEmpty() || trimmed.startsWith("#")) {
        continue;
      }
      String[] parts = trimmed.split("\\s+", 2);
      assertThat(parts).as("%s: a key without a value: %s", file, line).hasSize(2);
      assertThat(values.put(parts[0], parts[1].strip())).as("%s: %s set twice", file, parts[0]).isNull();
    }
    return values;
  }

  @Test
  void dryRunOfThePaperGridWritesEveryPointsConfAndPrintsItsCommands(@TempDir Path temp) throws Exception {
    Path archive = temp.resolve("archive");
    Scripts.Result result = Scripts.run(temp, Map.of("HIBENCH_HOME", "/opt/hibench"), TIMEOUT,
        SWEEP, "--archive", archive.toString(), "--event-log-dir", "hdfs:///history", "--dry-run");
    assertThat(result.exitCode()).as(result.stderr()).isZero();

    List<String> lines = result.stdout().lines().toList();
    assertThat(lines.stream().filter(line -> line.endsWith("/spark/run.sh"))).hasSize(5 * 9 * 3);
    assertThat(lines.stream().filter(line -> line.endsWith("/prepare/prepare.sh"))).hasSize(5);
    assertThat(lines).contains("/opt/hibench/bin/workloads/websearch/pagerank/spark/run.sh",
        "/opt/hibench/bin/workloads/graph/nweight/prepare/prepare.sh");

    int points = 0;
    for (String workload : CATEGORY.keySet()) {
      for (int executors = 1; executors <= 9; executors++) {
        for (int rep = 1; rep <= 3; rep++) {
          String point = workload + "-large-" + executors + "x3-4g-r" + rep;
          Path conf = archive.resolve(point).resolve("conf");
          Map<String, String> spark = parseHibenchConf(conf.resolve("spark.conf"));
          assertThat(spark).containsEntry("hibench.yarn.executor.num", Integer.toString(executors))
              .containsEntry("hibench.yarn.executor.cores", "3")
              .containsEntry("spark.executor.memory", "4g")
              .containsEntry("spark.dynamicAllocation.enabled", "false")
              .containsEntry("spark.eventLog.enabled", "true")
              .containsEntry("spark.eventLog.dir", "hdfs:///history")
              .containsEntry("spark.perflab.workload", workload)
              .containsEntry("spark.perflab.scale", "large")
              .containsEntry("spark.perflab.repetition", Integer.toString(rep))
              .containsEntry("spark.perflab.grid.point", point);
          Map<String, String> hibench = parseHibenchConf(conf.resolve("hibench.conf"));
          assertThat(hibench).containsEntry("hibench.scale.profile", "large")
              .containsEntry("hibench.default.map.parallelism", Integer.toString(executors * 3 * 2))
              .containsEntry("hibench.default.shuffle.parallelism", Integer.toString(executors * 3 * 2));
          Path workloadConf = conf.resolve("workloads").resolve(CATEGORY.get(workload)).resolve(workload + ".conf");
          assertThat(parseHibenchConf(workloadConf)).containsKey("hibench." + workload + ".large."
              + switch (workload) {
                case "wordcount" -> "datasize";
                case "svm" -> "examples";
                case "kmeans" -> "num_of_samples";
                case "pagerank" -> "pages";
                default -> "edges";
              });
          points++;
        }
      }
    }
    assertThat(points).isEqualTo(135);
    try (Stream<Path> dirs = Files.list(archive)) {
      assertThat(dirs.filter(Files::isDirectory)).hasSize(135);
    }
  }

  @Test
  void overridesReplaceTheGridsValues(@TempDir Path temp) throws Exception {
    Path archive = temp.resolve("archive");
    Scripts.Result result = Scripts.run(temp, Map.of(), TIMEOUT, SWEEP, "--archive", archive.toString(),
        "--workloads", "svm", "--scales", "small", "--executors", "2,4", "--cores", "2", "--memory", "2g",
        "--repetitions", "1", "--no-prepare", "--dry-run");
    assertThat(result.exitCode()).as(result.stderr()).isZero();
    assertThat(result.stdout()).doesNotContain("prepare.sh");
    assertThat(parseHibenchConf(archive.resolve("svm-small-4x2-2g-r1/conf/spark.conf")))
        .containsEntry("hibench.yarn.executor.num", "4").containsEntry("hibench.yarn.executor.cores", "2")
        .containsEntry("spark.executor.memory", "2g").containsEntry("spark.eventLog.dir", "hdfs:///spark-history");
    assertThat(archive.resolve("svm-small-2x2-2g-r1/conf/hibench.conf")).exists();
  }

  @Test
  void rejectsABadGridValueWithExitTwo(@TempDir Path temp) throws Exception {
    Scripts.Result zero = Scripts.run(temp, Map.of(), TIMEOUT, SWEEP, "--archive", temp.toString(),
        "--executors", "0,2", "--dry-run");
    assertThat(zero.exitCode()).isEqualTo(2);
    assertThat(zero.stderr()).contains("executors must be counts of at least 1 (0,2)");
    Scripts.Result unknown = Scripts.run(temp, Map.of(), TIMEOUT, SWEEP, "--archive", temp.toString(),
        "--workloads", "wordcount,grep", "--dry-run");
    assertThat(unknown.exitCode()).isEqualTo(2);
    assertThat(unknown.stderr()).contains("unknown HiBench workload (grep)");
    Scripts.Result noHibench = Scripts.run(temp, Map.of(), TIMEOUT, SWEEP, "--archive", temp.toString(),
        "--hibench-home", temp.resolve("nothing").toString());
    assertThat(noHibench.exitCode()).isEqualTo(2);
    assertThat(noHibench.stderr()).contains("Cannot run: not a HiBench installation");
  }
}
