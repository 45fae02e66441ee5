package org.perflab.spark.regress;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.apache.spark.SparkContext;
import org.perflab.errors.Futures;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Independent MLlib fits submitted from several driver threads at once. A fit on a few thousand runs is hundreds of
 * Spark jobs of one partition each (a GBT tree level is one job), so one fit at a time leaves all slots but one idle
 * while the driver schedules the next job; fits that share nothing (the held-out folds of {@code evaluate}, the kinds
 * of {@code regress}) can run side by side, each seeded, with the same results as one after the other.
 */
public final class ParallelFits {
  private static final Logger LOG = LoggerFactory.getLogger(ParallelFits.class);

  private ParallelFits() {}

  /** How many fits to run at once on {@code context}: its default parallelism, at least 1, at most {@code count}. */
  public static int parallelism(SparkContext context, int count) {
    return Math.max(1, Math.min(count, context.defaultParallelism()));
  }

  /**
   * {@code work} of 0 to {@code count - 1}, at most {@code parallel} at a time, concatenated in index order: the same
   * rows in the same order as one after another, whatever order they end in. The threads inherit the caller's Spark
   * job group and description. The first failure to happen cancels the work not yet started and is rethrown once the
   * work already running has ended (so that what it cached is unpersisted before the caller goes on).
   */
  public static <T> List<T> run(int count, int parallel, IntFunction<List<T>> work) {
    if (count <= 0) {
      return List.of();
    }
    AtomicInteger threads = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, parallel), r -> {
      Thread t = new Thread(r, "perflab-fit-" + threads.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    CompletionService<List<T>> done = new ExecutorCompletionService<>(pool);
    List<Future<List<T>>> futures = new ArrayList<>();
    try {
      for (int i = 0; i < count; i++) {
        int index = i;
        futures.add(done.submit(() -> work.apply(index)));
      }
      for (int i = 0; i < count; i++) {
        Futures.await(() -> done.take().get(), "fit the regressions");
      }
      List<T> out = new ArrayList<>();
      for (Future<List<T>> future : futures) {
        out.addAll(Futures.await(future::get, "fit the regressions"));
      }
      return out;
    } catch (RuntimeException | Error e) {
      // The first failure (or an interrupt) ends the fits: those not started are cancelled, the running ones end first.
      futures.forEach(future -> future.cancel(false));
      awaitRunning(pool);
      throw e;
    } finally {
      pool.shutdown();
    }
  }

  private static void awaitRunning(ExecutorService pool) {
    pool.shutdown();
    try {
      while (!pool.awaitTermination(1, TimeUnit.MINUTES)) {
        LOG.info("Waiting for a running fit to end before rethrowing the first failure");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
