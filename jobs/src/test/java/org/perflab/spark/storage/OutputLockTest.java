package org.perflab.spark.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OutputLockTest {
  @TempDir Path temp;

  private FileSystem fs() throws Exception {
    return FileSystem.getLocal(new Configuration());
  }

  private org.apache.hadoop.fs.Path root() {
    return new org.apache.hadoop.fs.Path(temp.toUri());
  }

  @Test
  void aSecondRunIsRefusedNamingTheHolderAndTheLockGoesWithTheRun() throws Exception {
    try (OutputLock held = OutputLock.acquire(fs(), root(), "ingest", Clock.systemUTC())) {
      assertThat(temp.resolve(OutputLock.FILE_NAME)).exists();
      assertThatThrownBy(() -> OutputLock.acquire(fs(), root(), "maintain", Clock.systemUTC()))
          .isInstanceOf(OutputLock.HeldException.class)
          .hasMessageStartingWith("Cannot maintain: another PerfLab run holds the output root (ingest, pid "
              + ProcessHandle.current().pid());
    }
    assertThat(temp.resolve(OutputLock.FILE_NAME)).doesNotExist();
    OutputLock.acquire(fs(), root(), "maintain", Clock.systemUTC()).close();
  }

  /**
   * A lock shared in this process (the nightly job's, whose steps run in its threads): every acquire of it here gets
   * a share, which releases nothing when closed; the lock goes when its holder closes it, and is refused to other
   * lock files' runs as before.
   */
  @Test
  void aLockSharedInThisProcessIsTakenByItsRunsAndReleasedOnlyByItsHolder() throws Exception {
    OutputLock night = OutputLock.acquire(fs(), root(), "nightly", Clock.systemUTC()).shareInThisProcess();
    try (OutputLock features = OutputLock.acquire(fs(), root(), "features", Clock.systemUTC());
        OutputLock stageCosts = OutputLock.acquire(fs(), root(), "stage-costs", Clock.systemUTC())) {
      assertThat(features.file()).isEqualTo(night.file());
      assertThat(stageCosts.file()).isEqualTo(night.file());
      assertThatThrownBy(features::shareInThisProcess).isInstanceOf(IllegalStateException.class);
    }
    assertThat(temp.resolve(OutputLock.FILE_NAME)).as("a share's close releases nothing").exists();
    night.close();
    assertThat(temp.resolve(OutputLock.FILE_NAME)).doesNotExist();
    try (OutputLock alone = OutputLock.acquire(fs(), root(), "ingest", Clock.systemUTC())) {
      assertThatThrownBy(() -> OutputLock.acquire(fs(), root(), "maintain", Clock.systemUTC()))
          .as("once its holder closed it, the lock is no longer shared").isInstanceOf(OutputLock.HeldException.class);
    }
  }

  /**
   * Two runs that find the same stale lock at the same moment: exactly one takes it over, the other is refused (the
   * takeover is atomic, not check-then-act). Repeated, since a race shows only sometimes.
   */
  @Test
  void ofTwoRunsTakingOverTheSameStaleLockAtOnceExactlyOneGetsIt() throws Exception {
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
    try {
      for (int round = 0; round < 25; round++) {
        Path lock = temp.resolve(OutputLock.FILE_NAME);
        Files.writeString(lock, "{\"job\":\"ingest\",\"host\":\"elsewhere\",\"pid\":" + (round + 1)
            + ",\"process_start_ms\":1,\"acquired_ms\":1}");
        Files.setLastModifiedTime(lock, java.nio.file.attribute.FileTime.from(Instant.now().minus(Duration.ofHours(1))));
        java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(2);
        java.util.concurrent.Callable<OutputLock> taker = () -> {
          start.await();
          try {
            return OutputLock.acquire(fs(), root(), "ingest", Clock.systemUTC());
          } catch (OutputLock.HeldException refused) {
            return null;
          }
        };
        java.util.List<java.util.concurrent.Future<OutputLock>> takers = pool.invokeAll(java.util.List.of(taker, taker));
        java.util.List<OutputLock> taken = new java.util.ArrayList<>();
        for (java.util.concurrent.Future<OutputLock> result : takers) {
          if (result.get() != null) {
            taken.add(result.get());
          }
        }
        assertThat(taken).as("round %d", round).hasSize(1);
        taken.get(0).close();
        try (java.util.stream.Stream<Path> left = Files.list(temp)) {
          assertThat(left).as("no lock or takeover marker is left").isEmpty();
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aLockLeftByADeadProcessOfThisHostIsTakenOver() throws Exception {
    Process dead = new ProcessBuilder("true").start();
    dead.waitFor();
    Files.writeString(temp.resolve(OutputLock.FILE_NAME), String.format(
        "{\"job\":\"ingest\",\"host\":\"%s\",\"pid\":%d,\"process_start_ms\":1,\"acquired_ms\":1}",
        OutputLock.hostName(), dead.pid()));

    try (OutputLock lock = OutputLock.acquire(fs(), root(), "ingest", Clock.systemUTC())) {
      assertThat(OutputLock.readHolder(fs(), new org.apache.hadoop.fs.Path(root(), OutputLock.FILE_NAME))
          .orElseThrow().pid()).isEqualTo(ProcessHandle.current().pid());
    }
  }

  @Test
  void aLockOfAnotherHostIsTakenOverOnlyOnceItsHeartbeatIsStale() throws Exception {
    Files.writeString(temp.resolve(OutputLock.FILE_NAME),
        "{\"job\":\"ingest\",\"host\":\"elsewhere\",\"pid\":1,\"process_start_ms\":1,\"acquired_ms\":1}");
    assertThatThrownBy(() -> OutputLock.acquire(fs(), root(), "ingest", Clock.systemUTC()))
        .isInstanceOf(OutputLock.HeldException.class).hasMessageContaining("on elsewhere");

    Clock later = Clock.fixed(Instant.now().plus(OutputLock.STALE_AFTER).plus(Duration.ofMinutes(1)), ZoneOffset.UTC);
    OutputLock.acquire(fs(), root(), "ingest", later).close();
  }

  @Test
  void aLockFileStillBeingWrittenIsHeldAndTakenOverOnlyOnceStale() throws Exception {
    Files.writeString(temp.resolve(OutputLock.FILE_NAME), "");
    assertThatThrownBy(() -> OutputLock.acquire(fs(), root(), "ingest", Clock.systemUTC()))
        .isInstanceOf(OutputLock.HeldException.class).hasMessageContaining("(a run starting now;");

    Clock later = Clock.fixed(Instant.now().plus(OutputLock.STALE_AFTER).plus(Duration.ofMinutes(1)), ZoneOffset.UTC);
    OutputLock.acquire(fs(), root(), "ingest", later).close();
  }
}
