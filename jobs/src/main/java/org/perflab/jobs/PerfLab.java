package org.perflab.jobs;

import java.util.concurrent.Callable;
import org.perflab.errors.BadInputException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The single spark-submit entry point: {@code perflab <job> [job options]}. Each job is a picocli subcommand whose
 * {@code call()} parses and validates its options record, runs the job and returns an exit code.
 */
@Command(
    name = "perflab",
    mixinStandardHelpOptions = true,
    versionProvider = BuildInfo.VersionProvider.class,
    description = "Performance engineering of Apache Spark, run as Spark applications.",
    subcommands = {CommandLine.HelpCommand.class})
public final class PerfLab implements Callable<Integer> {
  private static final Logger LOG = LoggerFactory.getLogger(PerfLab.class);

  public static void main(String[] args) {
    String job = jobName(args);
    if (job != null) {
      ConsoleLogging.configure(job, java.util.Arrays.asList(args).contains("--verbose"), java.time.Clock.systemUTC());
    }
    int code = run(args);
    if (code != 0) {
      System.exit(code);
    }
  }

  /** The job an argument list names (its first word that is not an option), or null for none. */
  static String jobName(String[] args) {
    for (String arg : args) {
      if (!arg.startsWith("-")) {
        return arg.equals("help") ? null : arg;
      }
    }
    return null;
  }

  /** Parses and runs one job; returns its exit code instead of exiting, so tests can call it. */
  public static int run(String... args) {
    return commandLine().execute(args);
  }

  static CommandLine commandLine() {
    CommandLine commandLine = new CommandLine(new PerfLab());
    Jobs.register(commandLine);
    commandLine.setParameterExceptionHandler(PerfLab::onBadArguments);
    commandLine.setExecutionExceptionHandler(PerfLab::onFailure);
    return commandLine;
  }

  @Override
  public Integer call() {
    CommandLine.usage(this, System.err);
    return ExitCode.BAD_INPUT.code();
  }

  private static int onBadArguments(CommandLine.ParameterException e, String[] args) {
    System.err.println(e.getMessage());
    e.getCommandLine().usage(System.err);
    return ExitCode.BAD_INPUT.code();
  }

  /** Whether Delta refused a commit because another writer committed first (anywhere in the cause chain). */
  static boolean concurrentModification(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof org.apache.spark.sql.delta.DeltaConcurrentModificationException) {
        return true;
      }
    }
    return false;
  }

  private static int onFailure(Exception e, CommandLine commandLine, CommandLine.ParseResult parsed) {
    if (e instanceof BadInputException) {
      System.err.println(e.getMessage());
      return ExitCode.BAD_INPUT.code();
    }
    LOG.error("PerfLab job {} failed", commandLine.getCommandName(), e);
    if (e instanceof org.perflab.storage.OutputLock.HeldException) {
      System.err.println(e.getMessage());
    } else if (concurrentModification(e)) {
      System.err.println("Cannot " + commandLine.getCommandName() + ": another writer changed the tables at the same"
          + " time (" + e.getClass().getSimpleName() + "; rerun " + commandLine.getCommandName() + ")");
    } else {
      System.err.println("Cannot complete " + commandLine.getCommandName() + ": " + e);
    }
    return ExitCode.FAILURE.code();
  }
}
