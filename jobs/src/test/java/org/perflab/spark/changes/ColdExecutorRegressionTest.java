package org.perflab.spark.changes;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A regression whose extra time is executors warming up, on real runs that no one here produced: eight consecutive
 * runs of the cems Wikipedia "top contributors" PySpark job on 4 executors of 2 cores (6 June 2015, {@code
 * ../shared/data/scaling/cems/wikipedia_target}), then {@code app-20150606180659-0000}, the first run on 8 executors,
 * 251 s against about 184 s. In its one stage the first tasks of every executor ran 43-79 s against a median of 6.3 s
 * and later tasks of 9-20 s: {@code diagnose} calls them {@code COLD_EXECUTOR}. Without that evidence (judged without
 * {@code diagnose}, as {@code bench/run regressions} did before) its first cause was a {@code STAGES} one, which does
 * not say that the time went into each executor's first wave.
 */
class ColdExecutorRegressionTest {
  private static final List<String> STEADY = List.of("app-20150606163447-0000", "app-20150606163946-0000",
      "app-20150606164447-0000", "app-20150606164950-0000", "app-20150606165455-0000", "app-20150606170001-0000",
      "app-20150606162944-0000", "app-20150606162439-0000");
  private static final String COLD = "app-20150606180659-0000";

  @TempDir static Path dir;

  private static Map<String, Row> rows;

  @BeforeAll
  static void ingestFeaturesDiagnoseRegressions() throws IOException {
    rows = WikipediaRuns.judge(dir, Stream.concat(STEADY.stream(), Stream.of(COLD)).toList());
  }

  @Test
  void theRunWhoseExecutorsWarmedUpInItsStageIsARegressionOfColdExecutors() {
    Row r = rows.get(COLD);
    assertThat(r.<String>getAs("verdict")).isEqualTo("REGRESSION");
    assertThat(r.<Double>getAs("wall_time_ratio")).isGreaterThan(1.25);
    assertThat(r.<String>getAs("first_cause")).isEqualTo("RESOURCES: tasks on executors that had not warmed up");
    Row first = r.<Row>getList(r.fieldIndex("causes")).get(0);
    assertThat(first.<Double>getAs("share")).as("of the extra time").isGreaterThan(0.8);
    assertThat(first.<String>getAs("evidence")).contains("stage 0 ", "a task among its executor's first ran");
    // a static allocation (Spark 1.4 standalone, no dynamic allocation): fewer, larger executors, warm Python workers
    assertThat(first.<String>getAs("action")).contains("fewer, larger executors", "spark.python.worker.reuse",
        "read finding COLD_EXECUTORS");
    assertThat(r.<String>getList(r.fieldIndex("actions"))).noneMatch(a -> a.contains("DATA_SKEW"));
  }

  @Test
  void theSteadyRunsAreNotRegressions() {
    WikipediaRuns.assertNotRegressions(rows, STEADY);
  }
}
