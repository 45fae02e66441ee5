package org.perflab.spark.changes;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A regression whose extra time is one slow machine, on real runs that no one here produced: six consecutive runs of
 * the cems Wikipedia "top contributors" job at 128 slots (7 June 2015, {@code ../shared/data/scaling/cems/
 * wikipedia_target}), 35.5-36.8 s each, then {@code app-20150607030839-0000}, 48.0 s. In its stage 1 both tasks on
 * hadoop2 ran 16.3 s against 3.7-3.9 s on every other host, like data everywhere: {@code diagnose} calls them
 * {@code SLOW_HOST}. Without that evidence the regression's first cause read "skew: one task much longer than the
 * others", whose action (read {@code DATA_SKEW}: repartition, salt the key) would not help; the machine would.
 */
class SlowHostRegressionTest {
  private static final List<String> STEADY = List.of("app-20150607025006-0000", "app-20150607025242-0000",
      "app-20150607025520-0000", "app-20150607030047-0000", "app-20150607030323-0000", "app-20150607030602-0000");
  private static final String SLOW = "app-20150607030839-0000";

  @TempDir static Path dir;

  private static Map<String, Row> rows;

  @BeforeAll
  static void ingestFeaturesDiagnoseRegressions() throws IOException {
    rows = WikipediaRuns.judge(dir, java.util.stream.Stream.concat(STEADY.stream(), java.util.stream.Stream.of(SLOW))
        .toList());
  }

  @Test
  void theRunSlowedByOneMachineIsARegressionOfThatHost() {
    Row r = rows.get(SLOW);
    assertThat(r.<String>getAs("verdict")).isEqualTo("REGRESSION");
    assertThat(r.<Double>getAs("wall_time_ratio")).isGreaterThan(1.25);
    assertThat(r.<String>getAs("first_cause"))
        .isEqualTo("ENVIRONMENT: tasks on a slow host (hadoop2.cscacloud.internal)");
    Row first = r.<Row>getList(r.fieldIndex("causes")).get(0);
    assertThat(first.<Double>getAs("share")).as("of the extra time").isGreaterThan(0.8);
    assertThat(first.<String>getAs("evidence")).contains("stage 1 ", "a task on host hadoop2.cscacloud.internal ran",
        "the host's other tasks ran slow too");
    assertThat(first.<String>getAs("action")).contains("check hadoop2.cscacloud.internal", "spark.speculation=true",
        "read finding SLOW_HOSTS");
    assertThat(r.<String>getList(r.fieldIndex("actions"))).noneMatch(a -> a.contains("DATA_SKEW"));
  }

  @Test
  void theSteadyRunsAreNotRegressions() {
    WikipediaRuns.assertNotRegressions(rows, STEADY);
  }
}
