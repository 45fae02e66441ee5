package org.perflab.errors;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.ExecutionException;

/** Waiting for work run on another thread, with its failure thrown on the waiting thread as it was thrown there. */
public final class Futures {
  /** A wait for another thread's result: {@code Future::get}, {@code () -> completion.take().get()}. */
  @FunctionalInterface
  public interface Wait<T> {
    T get() throws InterruptedException, ExecutionException;
  }

  private Futures() {}

  /**
   * The result of {@code wait}. A {@link RuntimeException} or {@link Error} of the other thread (a bad input, an
   * {@code OutOfMemoryError}) is rethrown as it is; any other failure, and an interrupt of the waiting thread (whose
   * interrupt flag is set again), becomes an {@link IllegalStateException} reading "Cannot {@code action}: ...".
   *
   * @param action what was waited for, as the message's verb phrase: "commit tables"
   */
  public static <T> T await(Wait<T> wait, String action) {
    try {
      return wait.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Cannot " + action + ": interrupted", e);
    } catch (ExecutionException e) {
      Throwable cause = unchecked(e);
      throw new IllegalStateException("Cannot " + action + ": " + cause, cause);
    }
  }

  /**
   * As {@link #await}, for work whose contract is {@link IOException} (a copy to HDFS): an {@code IOException} of the
   * other thread is rethrown as it is, so that callers and {@code Failures} see the file system's own failure;
   * a {@link RuntimeException} or {@link Error} too; any other failure, and an interrupt of the waiting thread (whose
   * interrupt flag is set again), becomes an {@code IOException} reading "Cannot {@code action}: ..."
   * ({@link InterruptedIOException} for the interrupt).
   */
  public static <T> T awaitIo(Wait<T> wait, String action) throws IOException {
    try {
      return wait.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      InterruptedIOException interrupted = new InterruptedIOException("Cannot " + action + ": interrupted");
      interrupted.initCause(e);
      throw interrupted;
    } catch (ExecutionException e) {
      Throwable cause = unchecked(e);
      throw cause instanceof IOException io ? io : new IOException("Cannot " + action + ": " + cause, cause);
    }
  }

  /**
   * The cause of {@code e}, thrown here if it is a {@link RuntimeException} or an {@link Error}, else returned (the
   * checked failure, or {@code e} itself when it has no cause).
   */
  private static Throwable unchecked(ExecutionException e) {
    Throwable cause = e.getCause() == null ? e : e.getCause();
    if (cause instanceof RuntimeException runtime) {
      throw runtime;
    }
    if (cause instanceof Error error) {
      throw error;
    }
    return cause;
  }
}
