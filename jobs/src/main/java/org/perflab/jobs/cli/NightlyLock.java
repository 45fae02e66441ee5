package org.perflab.jobs.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.perflab.spark.storage.DeltaSessions;
import org.perflab.spark.storage.OutputLock;

/**
 * Holds {@code submit/nightly}'s lock on an output root ({@code <root>/_perflab_nightly_lock}) for as long as its
 * standard input stays open: the nightly script starts it as a co-process, waits for the line {@code locked <file>},
 * and closes the pipe when the pipeline ends. A nightly killed outright closes the pipe too (the lock is released);
 * one whose whole process group is killed leaves a lock whose holder is a dead process of this host, or whose
 * heartbeat ({@link OutputLock#HEARTBEAT}) stops, and the next nightly takes it over ({@link OutputLock#STALE_AFTER}).
 *
 * <p>Runs without Spark: {@code java -cp perflab.jar:<spark>/jars/* org.perflab.jobs.cli.NightlyLock --root ROOT}. Exit
 * codes: 0 after releasing, 1 when a live nightly holds the root (the message names it and its start time) or the root
 * cannot be reached, 2 for a usage error.
 */
public final class NightlyLock {
  private NightlyLock() {}

  public static void main(String[] args) {
    System.exit(run(args, System.in, System.out, System.err, Clock.systemUTC()));
  }

  /** Takes the lock, announces it on {@code out}, holds it until {@code in} ends; returns the exit code. */
  public static int run(String[] args, InputStream in, PrintStream out, PrintStream err, Clock clock) {
    if (args.length != 2 || !args[0].equals("--root") || args[1].isBlank()) {
      err.println("nightly: Cannot parse options: expected --root ROOT (" + String.join(" ", args) + ")");
      return ExitCode.BAD_INPUT.code();
    }
    Path root = new Path(args[1]);
    try (OutputLock lock = OutputLock.acquire(fileSystem(root), root, OutputLock.NIGHTLY_FILE_NAME, "nightly", clock)) {
      out.println("locked " + lock.file());
      out.flush();
      drain(in);
      return ExitCode.SUCCESS.code();
    } catch (OutputLock.HeldException e) {
      // OutputLock's message: "Cannot run the nightly pipeline: ...", the holder, its host and start time.
      err.println("nightly: " + e.getMessage());
      return ExitCode.FAILURE.code();
    } catch (UncheckedIOException e) {
      err.println("nightly: Cannot take the nightly lock: " + e.getMessage() + " (" + root + ")");
      return ExitCode.FAILURE.code();
    }
  }

  private static FileSystem fileSystem(Path root) {
    try {
      return root.getFileSystem(DeltaSessions.hadoopConfiguration());
    } catch (IOException e) {
      throw new UncheckedIOException(e.getMessage(), e);
    }
  }

  private static void drain(InputStream in) {
    byte[] buffer = new byte[256];
    try {
      while (in.read(buffer) != -1) {
        // The nightly writes nothing; it only closes the pipe.
      }
    } catch (IOException e) {
      // A broken pipe ends the hold like end of input.
    }
  }
}
