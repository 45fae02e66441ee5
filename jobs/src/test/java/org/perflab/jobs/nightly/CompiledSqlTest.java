package org.perflab.jobs.nightly;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.perflab.spark.ingest.SparkTestSession;
import org.perflab.spark.storage.CompiledExpressions;
import org.perflab.jobs.cli.JobSession;

/**
 * A night compiles its SQL expressions after an ingest of millions of task rows, and only then: the decision
 * ({@link CompiledSql}), and what each runner does with it, a submission per step getting the keys as
 * {@code --conf} and the night's session leaving keys set at submission as they were.
 */
class CompiledSqlTest {
  private static final Step INGEST = Pipeline.step("ingest").orElseThrow();
  private static final Step FEATURES = Pipeline.step("features").orElseThrow();
  private static final String WHOLE_STAGE = "spark.sql.codegen.wholeStage";
  private static final String FACTORY_MODE = "spark.sql.codegen.factoryMode";

  @Test
  void onlyAnIngestOfAtLeastTheBoundOfTaskRowsCompilesTheRestOfTheNight() {
    long bound = CompiledExpressions.FROM_TASK_ROWS;
    assertThat(CompiledSql.after(INGEST, Map.of("tasks", bound - 1, "applications", 10L))).isEmpty();
    assertThat(CompiledSql.after(INGEST, Map.of("applications", 5L))).isEmpty();
    assertThat(CompiledSql.after(INGEST, Map.of("tasks", bound))).contains(CompiledExpressions.SETTINGS);
    assertThat(CompiledSql.after(FEATURES, Map.of("tasks", 10 * bound))).as("only ingest's rows count").isEmpty();
    assertThat(CompiledExpressions.SETTINGS.keySet()).isEqualTo(JobSession.INTERPRETED_SQL.keySet());
  }

  @Test
  void aSubmissionPerStepGetsTheCompiledKeysAfterALargeIngestExceptThoseTheNightsOptionsSet() {
    SubmitSteps steps = new SubmitSteps("perflab", List.of("--master", "local[2]", "--conf", WHOLE_STAGE + "=false"));
    List<String> arguments = List.of("features", "--input", "/out");
    assertThat(steps.wrote(INGEST, Map.of("tasks", 10L))).isEmpty();
    assertThat(steps.command(arguments)).containsExactly("perflab", "--master", "local[2]", "--conf",
        WHOLE_STAGE + "=false", "features", "--input", "/out");

    assertThat(steps.wrote(INGEST, Map.of("tasks", 2_500_000L))).hasValueSatisfying(line -> assertThat(line)
        .contains("compiled for the rest of the night (" + FACTORY_MODE + ")").contains("2,500,000 task rows"));
    assertThat(steps.command(arguments)).containsExactly("perflab", "--master", "local[2]", "--conf",
        WHOLE_STAGE + "=false", "--conf", FACTORY_MODE + "=FALLBACK", "features", "--input", "/out");

    steps.wrote(INGEST, Map.of("tasks", 3_000_000L));
    assertThat(steps.command(arguments)).as("a second large ingest adds nothing").hasSize(10);
  }

  /** The test session sets both keys in its SparkConf, as a user's {@code --conf} would: they stay as set. */
  @Test
  void theNightsSessionLeavesKeysSetAtSubmissionAsTheyWere() {
    SparkSession spark = SparkTestSession.get();
    assertThat(spark.sparkContext().getConf().contains(WHOLE_STAGE)).isTrue();
    SessionSteps steps = new SessionSteps(spark, arguments -> {
      throw new AssertionError("no step runs here");
    }, false, new PrintWriter(new StringWriter()));

    assertThat(steps.wrote(INGEST, Map.of("tasks", 2_000_000L))).hasValueSatisfying(line -> assertThat(line)
        .startsWith("nightly: SQL expressions as set at submission"));
    assertThat(spark.conf().get(WHOLE_STAGE)).isEqualTo("false");
    assertThat(spark.conf().get(FACTORY_MODE)).isEqualTo("NO_CODEGEN");
  }
}
