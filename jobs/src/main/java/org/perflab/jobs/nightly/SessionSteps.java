package org.perflab.jobs.nightly;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.apache.spark.SparkContext;
import org.apache.spark.sql.SparkSession;
import org.perflab.jobs.cli.Failures;
import org.perflab.jobs.cli.JobOutcome;
import org.perflab.jobs.cli.SessionCommand;
import org.perflab.spark.storage.SessionConf;
import picocli.CommandLine;

/**
 * Runs each step in the night's SparkSession: the step's command is built by picocli from its argument list (so its
 * options parse exactly as on the command line) and run through its in-session entry,
 * {@link SessionCommand#execute}. Each step runs under its own job group ({@code perflab-nightly-<step>}, described
 * {@code nightly <run id>: <step>}), so the History Server shows where the night's time went. After every step,
 * whatever happened, its thread is left as the night found it (the job group cleared, the night's session active), and
 * once no step runs, the session too: cached data unpersisted. Steps may run at the same time, each in a thread of its
 * own; what one step cached stays until the last step running beside it has ended (the steps unpersist their own
 * caches; this is the net for a step that failed). A step's failure goes through {@link Failures}, as it would alone.
 */
public final class SessionSteps implements StepRunner {
  private final SparkSession spark;
  private final Function<List<String>, SessionCommand> commands;
  private final boolean verbose;
  private final PrintWriter err;
  /** Steps running now; guarded by {@code this}. */
  private int running;

  /**
   * @param spark the night's session
   * @param commands builds a job's command from its arguments (its name, then its options), as picocli parses them
   * @param verbose whether a failure also prints its stack trace
   * @param err where a failure's line goes
   */
  public SessionSteps(SparkSession spark, Function<List<String>, SessionCommand> commands, boolean verbose,
      PrintWriter err) {
    this.spark = spark;
    this.commands = commands;
    this.verbose = verbose;
    this.err = err;
  }

  @Override
  public StepResult run(Step step, List<String> arguments, String runId) {
    SparkContext context = spark.sparkContext();
    begin();
    SparkSession.setActiveSession(spark);
    context.setJobGroup(jobGroup(step.job()), "nightly " + runId + ": " + step.job(), false);
    try {
      JobOutcome outcome = commands.apply(arguments).execute(spark);
      return new StepResult(outcome.code().code(), outcome.message());
    } catch (CommandLine.ParameterException e) {
      String line = Failures.usageLine(step.job(), e.getMessage());
      err.println(line);
      err.flush();
      return new StepResult(2, line);
    } catch (Exception e) {
      Failures.Outcome outcome = Failures.reported(step.job(), e, verbose, err);
      return new StepResult(outcome.code().code(), outcome.line());
    } finally {
      tidy();
    }
  }

  /**
   * After an ingest of millions of task rows, the night's session compiles its SQL expressions ({@link CompiledSql}),
   * each key unless the user set it at submission; the night puts the session's settings back when it ends.
   */
  @Override
  public Optional<String> wrote(Step step, Map<String, Long> rows) {
    return CompiledSql.after(step, rows)
        .map(settings -> CompiledSql.line(rows, SessionConf.setUnlessSubmitted(spark, settings).keySet()));
  }

  /** The job group of step {@code job}'s Spark jobs. */
  public static String jobGroup(String job) {
    return "perflab-nightly-" + job;
  }

  /** Counts a step that starts; waits while the last one to end tidies the session. */
  private synchronized void begin() {
    running++;
  }

  /**
   * Clears the job group and makes the night's session active in this thread; when no other step runs, unpersists
   * what the steps cached (Datasets and RDDs). A step that starts meanwhile waits in {@link #begin}, so nothing it
   * caches is lost.
   */
  private void tidy() {
    SparkContext context = spark.sparkContext();
    synchronized (this) {
      running--;
      if (running == 0 && !context.isStopped()) {
        spark.catalog().clearCache();
        scala.jdk.javaapi.CollectionConverters.asJava(context.getPersistentRDDs()).values()
            .forEach(rdd -> rdd.unpersist(false));
      }
    }
    context.clearJobGroup();
    SparkSession.setActiveSession(spark);
    SparkSession.setDefaultSession(spark);
  }
}
