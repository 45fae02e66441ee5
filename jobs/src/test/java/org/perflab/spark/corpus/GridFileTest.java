package org.perflab.spark.corpus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.perflab.errors.BadInputException;
import org.perflab.spark.workload.Scale;
import org.perflab.spark.workload.HiBenchWorkload;

class GridFileTest {
  private static final String GRID = """
      {"name": "g", "repetitions": 2, "conf": {"spark.ui.enabled": "false"},
       "cluster": {"workers": 2, "workerCores": 2, "workerMemory": "2g"},
       "sweeps": [
         {"workloads": ["wordcount", "sleep"], "coresPerExecutor": [1, 2]},
         {"name": "big", "master": "local-cluster", "workloads": ["kmeans"], "scales": ["small"],
          "executors": [2], "coresPerExecutor": [2], "executorMemory": ["512m"], "repetitions": 1,
          "conf": {"spark.ui.enabled": "true"}, "workloadArgs": ["--iterations", "3"]}]}
      """;

  @Test
  void expandsSweepsIntoPointsWithRepetitionsInnermost() {
    CorpusGrid grid = GridFile.parse(GRID, "g.json");
    List<String> ids = grid.points().stream().map(CorpusPoint::id).toList();
    assertThat(ids).containsExactly(
        "wordcount-tiny-local-1x1-1g-r1", "wordcount-tiny-local-1x1-1g-r2",
        "wordcount-tiny-local-1x2-1g-r1", "wordcount-tiny-local-1x2-1g-r2",
        "sleep-tiny-local-1x1-1g-r1", "sleep-tiny-local-1x1-1g-r2",
        "sleep-tiny-local-1x2-1g-r1", "sleep-tiny-local-1x2-1g-r2",
        "big-kmeans-small-cluster-2x2-512m-r1");
    CorpusPoint last = grid.points().get(8);
    assertThat(last.workload()).isEqualTo(HiBenchWorkload.KMEANS);
    assertThat(last.scale()).isEqualTo(Scale.SMALL);
    assertThat(last.slots()).isEqualTo(4);
    assertThat(last.conf()).containsEntry("spark.ui.enabled", "true");
    assertThat(last.workloadArgs()).containsExactly("--iterations", "3");
    assertThat(grid.points().get(0).conf()).containsEntry("spark.ui.enabled", "false");
    assertThat(grid.needsLocalCluster()).isTrue();
    assertThat(grid.timeoutSeconds()).isEqualTo(600);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "{\"name\": \"g\"}|sweeps must be a non-empty list",
      "{\"name\": \"g\", \"sweeps\": [{}]}|sweeps[0].workloads is required",
      "{\"name\": \"g\", \"sweeps\": [{\"workloads\": [\"wordcount\", \"bogus\"]}]}|sweeps[0].workloads[1] unknown name (bogus",
      "{\"name\": \"g\", \"sweeps\": [{\"workloads\": [\"sort\"], \"scales\": [\"medium\"]}]}|sweeps[0].scales[0] unknown profile (medium",
      "{\"name\": \"g\", \"sweeps\": [{\"workloads\": [\"sort\"], \"coresPerExecutor\": [0]}]}|sweeps[0].coresPerExecutor[0] must be at least 1 (0)",
      "{\"name\": \"g\", \"sweeps\": [{\"workloads\": [\"sort\"], \"executors\": [1, 2]}]}|sweeps[0].executors[1] must be 1 on a local master",
      "{\"name\": \"g\", \"sweeps\": [{\"workloads\": [\"sort\"], \"executorMemory\": [\"lots\"]}]}|sweeps[0].executorMemory[0] must be a Spark size",
      "{\"name\": \"g\", \"sweeps\": [{\"workloads\": [\"sort\"], \"executor\": [2]}]}|sweeps[0].executor is not a known field",
      "{\"name\": \"g\", \"sweeps\": [{\"workloads\": [\"sort\"], \"master\": \"local[4]\"}]}|sweeps[0].master must be local, local-cluster or a cluster master URL",
      "{\"name\": \"g\", \"sweeps\": [{\"workloads\": [\"sort\"], \"master\": \"local-cluster\", \"executors\": [3], \"coresPerExecutor\": [2]}]}|sweeps[0].executors times coresPerExecutor must not exceed the cluster's cores (4)",
      "{\"name\": \"g\", \"timeoutSeconds\": \"ten\", \"sweeps\": [{\"workloads\": [\"sort\"]}]}|timeoutSeconds must be a whole number",
      "{\"name\": \"g\", \"conf\": {\"ui\": \"x\"}, \"sweeps\": [{\"workloads\": [\"sort\"]}]}|conf keys must start with spark.",
      "{\"name\": \"g\", \"sweeps\": [{\"workloads\": [\"sort\"]}, {\"workloads\": [\"sort\"]}]}|repeats grid point sort-tiny-local-1x1-1g-r1",
      "[1, 2]|the top level must be a JSON object",
      "{\"name\": |not valid JSON"})
  void rejectsABadGridNamingTheField(String json, String message) {
    assertThatThrownBy(() -> GridFile.parse(json, "bad.json"))
        .isInstanceOf(BadInputException.class)
        .hasMessageStartingWith("Cannot read grid bad.json: ")
        .hasMessageContaining(message);
  }

  @Test
  void readsTheCommittedGrids() {
    Path sweeps = Path.of(System.getProperty("user.dir")).getParent().resolve("hibench-configs/sweeps");
    CorpusGrid paper = GridFile.read(sweeps.resolve("scaling-law-yarn.json"));
    assertThat(paper.points()).hasSize(5 * 9 * 3).allSatisfy(point -> assertThat(point.coresPerExecutor()).isEqualTo(3));
    CorpusGrid smoke = GridFile.read(sweeps.resolve("local-smoke.json"));
    assertThat(smoke.points()).hasSizeGreaterThanOrEqualTo(30);
    assertThat(smoke.points().stream().map(CorpusPoint::workload).distinct().count()).isGreaterThanOrEqualTo(5);
    for (HiBenchWorkload workload : smoke.points().stream().map(CorpusPoint::workload).distinct().toList()) {
      assertThat(smoke.points().stream().filter(p -> p.workload() == workload).map(CorpusPoint::slots).distinct())
          .as("slot counts of %s", workload).hasSizeGreaterThanOrEqualTo(3);
    }
  }
}
