package org.perflab.spark.regress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * How independent fits run at once ({@link ParallelFits#run}, used by the folds of {@code evaluate} and the kinds of
 * {@code regress}): the rows of one after another whatever order they end in, never more at a time than asked, and
 * the first failure rethrown only after the work already running has ended, the work not yet started never run.
 */
class ParallelFitsTest {

  @Test
  void theRowsComeInFoldOrderWhateverOrderTheFoldsEndIn() {
    AtomicInteger running = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    List<String> rows = ParallelFits.run(6, 2, f -> {
      most.accumulateAndGet(running.incrementAndGet(), Math::max);
      try {
        sleep(60L * (6 - f)); // the later folds end first
        return List.of("fold " + f + " a", "fold " + f + " b");
      } finally {
        running.decrementAndGet();
      }
    });
    assertThat(rows).containsExactly("fold 0 a", "fold 0 b", "fold 1 a", "fold 1 b", "fold 2 a", "fold 2 b",
        "fold 3 a", "fold 3 b", "fold 4 a", "fold 4 b", "fold 5 a", "fold 5 b");
    assertThat(most.get()).as("folds running at once").isEqualTo(2);
  }

  @Test
  void oneAtATimeRunsTheFoldsInOrderOnOneThread() {
    List<String> threads = new ArrayList<>();
    List<Integer> rows = ParallelFits.run(4, 1, f -> {
      synchronized (threads) {
        threads.add(Thread.currentThread().getName());
      }
      return List.of(f);
    });
    assertThat(rows).containsExactly(0, 1, 2, 3);
    assertThat(Set.copyOf(threads)).hasSize(1);
    assertThat(ParallelFits.<Integer>run(0, 2, f -> List.of(f))).isEmpty();
  }

  @Test
  void theFirstFailureIsRethrownAfterTheRunningFoldsEndAndTheFoldsNotStartedNeverRun() {
    Set<Integer> started = ConcurrentHashMap.newKeySet();
    Set<Integer> ended = ConcurrentHashMap.newKeySet();
    CountDownLatch slowStarted = new CountDownLatch(1);
    assertThatThrownBy(() -> ParallelFits.run(8, 2, f -> {
      started.add(f);
      try {
        if (f == 0) {
          slowStarted.countDown();
          sleep(400);
          return List.of(f);
        }
        await(slowStarted);
        sleep(50);
        throw new IllegalArgumentException("Cannot fit fold " + f + ": bad input (test)");
      } finally {
        ended.add(f);
      }
    })).isInstanceOf(IllegalArgumentException.class).hasMessage("Cannot fit fold 1: bad input (test)");
    assertThat(ended).as("every fold that started has ended when the failure is rethrown").isEqualTo(started);
    assertThat(started).contains(0, 1).doesNotContain(7);
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }
}
