package org.perflab.errors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class FuturesTest {
  private final ExecutorService pool = Executors.newSingleThreadExecutor();

  @AfterEach
  void stopPool() {
    pool.shutdownNow();
  }

  @Test
  void returnsTheOtherThreadsResult() {
    Future<String> result = pool.submit(() -> Thread.currentThread().getName());
    String name = Futures.await(result::get, "name the thread");
    assertThat(name).isNotEqualTo(Thread.currentThread().getName());
  }

  @Test
  void aRuntimeExceptionOrAnErrorOfTheOtherThreadIsRethrownAsItIs() {
    BadInputException bad = new BadInputException("Cannot read x: no such file (/x)");
    Future<Object> badInput = pool.submit(() -> {
      throw bad;
    });
    assertThatThrownBy(() -> Futures.await(badInput::get, "read x")).isSameAs(bad);

    OutOfMemoryError oom = new OutOfMemoryError("Java heap space");
    Future<Object> outOfMemory = pool.submit(() -> {
      throw oom;
    });
    assertThatThrownBy(() -> Futures.await(outOfMemory::get, "read x")).isSameAs(oom);
  }

  @Test
  void aCheckedFailureNamesTheActionAndKeepsItsCause() {
    IOException io = new IOException("disk full");
    Future<Object> failed = pool.submit(() -> {
      throw io;
    });
    assertThatThrownBy(() -> Futures.await(failed::get, "commit tables"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Cannot commit tables: java.io.IOException: disk full")
        .hasCause(io);
  }

  @Test
  void anInterruptedWaitNamesTheActionAndKeepsTheInterruptFlag() {
    CompletableFuture<String> never = new CompletableFuture<>();
    Thread.currentThread().interrupt();
    try {
      assertThatThrownBy(() -> Futures.await(never::get, "run the night's steps"))
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("Cannot run the night's steps: interrupted")
          .hasCauseInstanceOf(InterruptedException.class);
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    } finally {
      Thread.interrupted();
    }
  }

  @Test
  void awaitIoRethrowsTheOtherThreadsIoExceptionAsItIsAndWrapsOnlyOtherCheckedFailures() {
    IOException io = new IOException("Could not obtain block");
    Future<Object> failed = pool.submit(() -> {
      throw io;
    });
    assertThatThrownBy(() -> Futures.awaitIo(failed::get, "copy the report")).isSameAs(io);

    BadInputException bad = new BadInputException("Cannot read x: no such file (/x)");
    Future<Object> badInput = pool.submit(() -> {
      throw bad;
    });
    assertThatThrownBy(() -> Futures.awaitIo(badInput::get, "copy the report")).isSameAs(bad);

    Exception other = new Exception("checked, not I/O");
    Future<Object> otherFailure = pool.submit(() -> {
      throw other;
    });
    assertThatThrownBy(() -> Futures.awaitIo(otherFailure::get, "copy the report"))
        .isExactlyInstanceOf(IOException.class)
        .hasMessage("Cannot copy the report: java.lang.Exception: checked, not I/O")
        .hasCause(other);
  }

  @Test
  void anInterruptedIoWaitIsAnInterruptedIoExceptionAndKeepsTheInterruptFlag() {
    CompletableFuture<String> never = new CompletableFuture<>();
    Thread.currentThread().interrupt();
    try {
      assertThatThrownBy(() -> Futures.awaitIo(never::get, "copy the report"))
          .isInstanceOf(java.io.InterruptedIOException.class)
          .hasMessage("Cannot copy the report: interrupted")
          .hasCauseInstanceOf(InterruptedException.class);
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    } finally {
      Thread.interrupted();
    }
  }
}
