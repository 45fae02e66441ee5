package org.perflab.jobs.cli;

import org.apache.spark.sql.delta.DeltaConcurrentModificationException;
import org.perflab.spark.storage.OutputLock;
import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import org.perflab.errors.Actions;
import org.perflab.errors.BadInputException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place that turns what a job threw into an exit code and one line on stderr, for every job:
 *
 * <ul>
 *   <li>bad input or usage ({@link BadInputException} anywhere in the causes): exit 2, the exception's own message,
 *       already in the house form {@code Cannot <do X>: <reason> (<value>)};
 *   <li>another run holding the output root, or Delta refusing a commit because another writer committed first:
 *       exit 1, naming the holder or the conflict, and saying to rerun;
 *   <li>HDFS failing (a client exception of Hadoop's HDFS or RPC packages, or one thrown by HDFS's client code, or a
 *       refused connection to a NameNode, anywhere in the causes): exit 1, {@code Cannot <job>: HDFS failed: <message> (<name>; check that the
 *       NameNode and the DataNodes are up, then rerun <job>)};
 *   <li>any other failure: exit 1, {@code Cannot <job>: <message> (<exception's simple name>)} ("Cannot run
 *       <job>" for the jobs not named by a verb: workload, corpus, doctor);
 *   <li>the stack trace always goes to the log (this class's logger; the bundled log4j2.properties sends it to the
 *       run's log file, not the console), and to stderr only with {@code --verbose}.
 * </ul>
 */
public final class Failures {
  private static final Logger LOG = LoggerFactory.getLogger(Failures.class);
  /** Set by submit/perflab: the log file of this run. */
  public static final String LOG_FILE_ENV = "PERFLAB_LOG_FILE";

  private Failures() {}

  /** An exit code and the line that explains it. */
  public record Outcome(ExitCode code, String line) {}

  /** What {@code job} failing with {@code failure} exits with and says. */
  public static Outcome outcome(String job, Throwable failure) {
    BadInputException bad = badInput(failure);
    if (bad != null) {
      return new Outcome(ExitCode.BAD_INPUT, firstLine(bad.getMessage()));
    }
    if (failure instanceof OutputLock.HeldException held) {
      return new Outcome(ExitCode.FAILURE, firstLine(held.getMessage()));
    }
    Throwable conflict = concurrentModification(failure);
    if (conflict != null) {
      return new Outcome(ExitCode.FAILURE, "Cannot " + Actions.of(job) + ": another writer changed the tables at the"
          + " same time (" + conflict.getClass().getSimpleName() + "; rerun " + job + ")");
    }
    Throwable hdfs = hdfsFailure(failure);
    if (hdfs != null) {
      return new Outcome(ExitCode.FAILURE, "Cannot " + Actions.of(job) + ": HDFS failed: " + firstLine(hdfs.getMessage())
          + " (" + hdfs.getClass().getSimpleName() + "; check that the NameNode and the DataNodes are up, then rerun "
          + job + ")");
    }
    Throwable shown = unwrap(failure);
    String name = shown.getClass().getSimpleName().isEmpty() ? shown.getClass().getName()
        : shown.getClass().getSimpleName();
    String message = firstLine(shown.getMessage());
    if (message.isEmpty()) {
      message = "unexpected error without a message";
    } else if (message.startsWith("Cannot ")) {
      message = "c" + message.substring(1);
    }
    return new Outcome(ExitCode.FAILURE, "Cannot " + Actions.of(job) + ": " + message + " (" + name + ")");
  }

  /**
   * Reports {@code failure} of {@code job}: logs it with its stack trace, prints the line (and the trace with
   * {@code verbose}) on {@code err}, and returns the exit code.
   */
  public static int report(String job, Throwable failure, boolean verbose, PrintWriter err) {
    return reported(job, failure, verbose, err).code().code();
  }

  /** {@link #report}, returning the exit code with the line it printed. */
  public static Outcome reported(String job, Throwable failure, boolean verbose, PrintWriter err) {
    Outcome outcome = outcome(job, failure);
    if (outcome.code() == ExitCode.BAD_INPUT) {
      LOG.warn("{}", outcome.line(), failure);
    } else {
      LOG.error("{}", outcome.line(), failure);
    }
    err.println(outcome.line());
    if (verbose) {
      failure.printStackTrace(err);
    } else if (outcome.code() == ExitCode.FAILURE && System.getenv(LOG_FILE_ENV) != null) {
      err.println("The stack trace is in " + System.getenv(LOG_FILE_ENV) + " (or run with --verbose).");
    }
    err.flush();
    OutcomeFile.write(outcome.code().code(), outcome.line());
    return outcome;
  }

  /** The line for a command line picocli could not parse: {@code Cannot run <job>: <what is wrong> (usage below)}. */
  public static String usageLine(String job, String problem) {
    String reason = firstLine(problem);
    if (!reason.isEmpty()) {
      reason = reason.substring(0, 1).toLowerCase(Locale.ROOT) + reason.substring(1);
    }
    return "Cannot run " + job + ": " + reason + " (see the usage below)";
  }

  /** Delta's refusal of a commit because another writer committed first, anywhere in the causes; else null. */
  private static Throwable concurrentModification(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof DeltaConcurrentModificationException) {
        return t;
      }
    }
    return null;
  }

  /**
   * The deepest cause that says HDFS failed: an exception of Hadoop's HDFS client or RPC packages (a block no DataNode
   * serves, a write no DataNode takes, the NameNode's refusal), or the refused connection to a NameNode that Hadoop's
   * RPC reports as {@code Call From ... failed on connection exception}; else null.
   */
  private static Throwable hdfsFailure(Throwable failure) {
    Throwable found = null;
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      String type = t.getClass().getName();
      StackTraceElement[] frames = t.getStackTrace();
      // HDFS's client throws plain IOExceptions too ("Unable to create new block." from its DataStreamer).
      boolean thrownByHdfs = frames.length > 0 && frames[0].getClassName().startsWith("org.apache.hadoop.hdfs.");
      boolean hadoop = type.startsWith("org.apache.hadoop.hdfs.") || type.startsWith("org.apache.hadoop.ipc.")
          || thrownByHdfs;
      boolean namenodeRefused = t instanceof java.net.ConnectException && t.getMessage() != null
          && t.getMessage().contains("failed on connection exception");
      if (hadoop || namenodeRefused) {
        found = t;
      }
    }
    return found;
  }

  private static BadInputException badInput(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof BadInputException bad) {
        return bad;
      }
    }
    return null;
  }

  /** Skips wrappers that add nothing: reflection and executor wrappers, and exceptions whose message is the cause's. */
  private static Throwable unwrap(Throwable failure) {
    Throwable t = failure;
    while (t.getCause() != null && t.getCause() != t
        && (t instanceof InvocationTargetException || t instanceof UndeclaredThrowableException
            || t instanceof ExecutionException || t.getMessage() == null
            || t.getMessage().equals(t.getCause().toString()))) {
      t = t.getCause();
    }
    return t;
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "";
    }
    String trimmed = message.strip();
    int end = trimmed.indexOf('\n');
    return (end < 0 ? trimmed : trimmed.substring(0, end)).strip();
  }
}
