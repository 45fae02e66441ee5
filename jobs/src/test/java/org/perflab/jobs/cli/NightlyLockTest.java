package org.perflab.jobs.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.spark.storage.OutputLock;

/** The lock {@code submit/nightly} holds through {@link NightlyLock}: held while its input is open, then released. */
class NightlyLockTest {
  @TempDir Path root;

  @Test
  void aSecondNightlyIsRefusedNamingTheHolderAndItsStartUntilTheFirstClosesItsInput() throws Exception {
    PipedOutputStream control = new PipedOutputStream();
    PipedInputStream input = new PipedInputStream(control);
    ByteArrayOutputStream firstOut = new ByteArrayOutputStream();
    CompletableFuture<Integer> first = CompletableFuture.supplyAsync(() -> NightlyLock.run(
        new String[] {"--root", root.toString()}, input, print(firstOut), print(new ByteArrayOutputStream()),
        Clock.systemUTC()));
    Path lockFile = root.resolve(OutputLock.NIGHTLY_FILE_NAME);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!firstOut.toString(StandardCharsets.UTF_8).startsWith("locked ") && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(firstOut.toString(StandardCharsets.UTF_8)).startsWith("locked ").contains(lockFile.toString());
    assertThat(lockFile).exists();

    ByteArrayOutputStream secondErr = new ByteArrayOutputStream();
    int second = NightlyLock.run(new String[] {"--root", root.toString()}, new ByteArrayInputStream(new byte[0]),
        print(new ByteArrayOutputStream()), print(secondErr), Clock.systemUTC());
    assertThat(second).isEqualTo(ExitCode.FAILURE.code());
    assertThat(secondErr.toString(StandardCharsets.UTF_8))
        .startsWith("nightly: Cannot run the nightly pipeline: another PerfLab run holds the output root (nightly, pid "
            + ProcessHandle.current().pid())
        .contains(", since 20");

    control.close();
    assertThat(first.get(30, TimeUnit.SECONDS)).isEqualTo(ExitCode.SUCCESS.code());
    assertThat(lockFile).doesNotExist();
  }

  @Test
  void usageErrorsExitTwo() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    assertThat(NightlyLock.run(new String[] {"--root"}, new ByteArrayInputStream(new byte[0]),
        print(new ByteArrayOutputStream()), print(err), Clock.systemUTC())).isEqualTo(ExitCode.BAD_INPUT.code());
    assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("nightly: Cannot parse options: expected --root ROOT");
  }

  private static PrintStream print(ByteArrayOutputStream bytes) {
    return new PrintStream(bytes, true, StandardCharsets.UTF_8);
  }
}
