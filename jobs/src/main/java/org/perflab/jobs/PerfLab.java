package org.perflab.jobs;

import org.perflab.jobs.cli.BuildInfo;
import org.perflab.jobs.cli.ConsoleLogging;
import org.perflab.jobs.cli.ExitCode;
import org.perflab.jobs.cli.Failures;
import org.perflab.jobs.cli.Preflight;
import org.perflab.jobs.cli.SessionCommand;
import java.util.List;
import org.apache.spark.SparkConf;
import java.util.Set;
import java.util.concurrent.Callable;
import org.perflab.errors.BadInputException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * The single spark-submit entry point: {@code perflab <job> [job options]}. Each job is a picocli subcommand whose
 * {@code call()} parses and validates its options record, runs the job and returns an exit code. Whatever a job
 * throws becomes an exit code and one line in {@link Failures}; a command line picocli cannot parse prints its
 * reason and the usage, and exits 2. {@code --help} and {@code --version} are answered here, before any job runs, so
 * they never start Spark.
 */
@Command(
    name = "perflab",
    mixinStandardHelpOptions = true,
    versionProvider = BuildInfo.VersionProvider.class,
    description = "Performance engineering of Apache Spark, run as Spark applications.",
    subcommands = {CommandLine.HelpCommand.class})
public final class PerfLab implements Callable<Integer> {
  static final String VERBOSE = "--verbose";
  /** Options of any job that name a path on a Hadoop file system: their schemes must resolve before the job runs. */
  static final Set<String> PATH_OPTIONS = Set.of("--input", "--output", "--path", "--model", "--grid",
      "--dag-models", "--data-dir", "--event-log-dir", "--manifest", "--os-metrics", "--ground-truth");

  @Option(names = VERBOSE, scope = ScopeType.INHERIT,
      description = "On failure, also print the stack trace (the run's log file always has it).")
  boolean verbose;

  public static void main(String[] args) {
    String job = jobName(args);
    if (job != null) {
      ConsoleLogging.configure(job, java.util.Arrays.asList(args).contains(VERBOSE), java.time.Clock.systemUTC());
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
    // perflab <job> --version prints the same as perflab --version.
    for (CommandLine job : commandLine.getSubcommands().values()) {
      job.getCommandSpec().versionProvider(new BuildInfo.VersionProvider());
    }
    commandLine.setParameterExceptionHandler(PerfLab::onBadArguments);
    commandLine.setExecutionExceptionHandler(PerfLab::onFailure);
    commandLine.setExecutionStrategy(PerfLab::execute);
    return commandLine;
  }

  /**
   * Runs the job the command line names, as picocli's {@link CommandLine.RunLast} does, after checking that the
   * file-system scheme of every path option resolves: a job's first line of work then never meets an unknown scheme.
   */
  private static int execute(CommandLine.ParseResult parsed) {
    CommandLine.ParseResult job = parsed;
    boolean helpOrVersion = parsed.isUsageHelpRequested() || parsed.isVersionHelpRequested();
    while (job.subcommand() != null) {
      job = job.subcommand();
      helpOrVersion |= job.isUsageHelpRequested() || job.isVersionHelpRequested();
    }
    if (!helpOrVersion) {
      CommandLine jobLine = job.commandSpec().commandLine();
      try {
        checkSchemes(job);
      } catch (BadInputException e) {
        throw new CommandLine.ExecutionException(jobLine, e.getMessage(), e);
      }
    }
    return new CommandLine.RunLast().execute(parsed);
  }

  /**
   * Checks that a local master (spark-submit's {@code --master}, in {@code spark.master}) is one Spark can run, and that
   * the file-system scheme of every path option of the parsed {@code job} resolves.
   */
  private static void checkSchemes(CommandLine.ParseResult job) {
    String master = new SparkConf().get("spark.master", null);
    if (master != null) {
      Preflight.of(job.commandSpec().commandLine().getCommandName()).master(master);
    }
    Preflight preflight = null;
    for (CommandLine.Model.OptionSpec option : job.matchedOptions()) {
      if (PATH_OPTIONS.contains(option.longestName())) {
        preflight = preflight != null ? preflight
            : Preflight.of(job.commandSpec().commandLine().getCommandName());
        for (String path : job.matchedOption(option.longestName()).stringValues()) {
          preflight.scheme(option.longestName(), path);
        }
      }
    }
  }

  /**
   * The job {@code arguments} name (its name, then its options), parsed by picocli exactly as on the command line and
   * with its paths' schemes checked, ready to run in a session the caller holds (the nightly pipeline's steps).
   *
   * @throws CommandLine.ParameterException when picocli cannot parse them
   * @throws BadInputException when a path's scheme does not resolve, or the job does not run in a session
   */
  static SessionCommand sessionCommand(List<String> arguments) {
    CommandLine.ParseResult job = commandLine().parseArgs(arguments.toArray(String[]::new)).subcommand();
    BadInputException.require(job != null && job.commandSpec().userObject() instanceof SessionCommand,
        "Cannot run %s in a session: it is not a job that runs in one (%s)", arguments.isEmpty() ? "" : arguments.get(0),
        String.join(" ", arguments));
    checkSchemes(job);
    return (SessionCommand) job.commandSpec().userObject();
  }

  @Override
  public Integer call() {
    CommandLine commandLine = new CommandLine(this);
    Jobs.register(commandLine);
    commandLine.getErr().println("Cannot run perflab: no job named (give one of the jobs below)");
    commandLine.usage(commandLine.getErr());
    return ExitCode.BAD_INPUT.code();
  }

  private static int onBadArguments(CommandLine.ParameterException e, String[] args) {
    CommandLine commandLine = e.getCommandLine();
    commandLine.getErr().println(Failures.usageLine(commandLine.getCommandName(), e.getMessage()));
    commandLine.usage(commandLine.getErr());
    commandLine.getErr().flush();
    return ExitCode.BAD_INPUT.code();
  }

  private static int onFailure(Exception e, CommandLine commandLine, CommandLine.ParseResult parsed) {
    return Failures.report(commandLine.getCommandName(), e, verbose(parsed), commandLine.getErr());
  }

  /** Whether {@code --verbose} was given, before the job name or after it. */
  static boolean verbose(CommandLine.ParseResult parsed) {
    for (CommandLine.ParseResult level = parsed; level != null; level = level.subcommand()) {
      if (level.hasMatchedOption(VERBOSE)) {
        return true;
      }
    }
    return false;
  }
}
