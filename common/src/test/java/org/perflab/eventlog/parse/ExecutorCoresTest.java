package org.perflab.eventlog.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.table.Table;

/**
 * {@code executors.total_cores} as docs/tables.md describes it: the cores of ExecutorAdded, which in local mode the
 * driver gets too (it runs the tasks), and on a cluster only the executors get.
 */
class ExecutorCoresTest {
  private static final String START = """
      {"Event":"SparkListenerLogStart","Spark Version":"4.1.0"}
      {"Event":"SparkListenerBlockManagerAdded","Block Manager ID":{"Executor ID":"driver","Host":"h","Port":1},\
      "Maximum Memory":1000,"Timestamp":1000}
      {"Event":"SparkListenerApplicationStart","App Name":"cores","App ID":"%s","Timestamp":1000,"User":"u"}
      """;
  private static final String END = """
      {"Event":"SparkListenerApplicationEnd","Timestamp":5000}
      """;

  private static String executorAdded(String id, int cores) {
    return "{\"Event\":\"SparkListenerExecutorAdded\",\"Timestamp\":1001,\"Executor ID\":\"" + id
        + "\",\"Executor Info\":{\"Host\":\"h\",\"Total Cores\":" + cores + ",\"Log Urls\":{}}}\n";
  }

  private static Map<String, Object> cores(Path dir, String appId, String executors) throws Exception {
    Path log = Files.writeString(dir.resolve(appId), START.formatted(appId) + executors + END);
    ParsedLog parsed = ParsedLog.parse(log, false);
    return parsed.rows(Table.EXECUTORS).stream().collect(Collectors.toMap(
        row -> (String) row.get("executor_id"), row -> String.valueOf(row.get("total_cores"))));
  }

  @Test
  void theDriverHasCoresInLocalModeOnly(@TempDir Path dir) throws Exception {
    assertThat(cores(dir, "local-1", executorAdded("driver", 2)))
        .containsExactly(Map.entry("driver", "2"));
    assertThat(cores(dir, "app-1", executorAdded("1", 4) + executorAdded("2", 4)))
        .containsOnly(Map.entry("driver", "null"), Map.entry("1", "4"), Map.entry("2", "4"));
  }
}
