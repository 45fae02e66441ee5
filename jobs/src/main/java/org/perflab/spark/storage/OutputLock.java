package org.perflab.spark.storage;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An exclusive lock on an output root for the jobs that commit to more than one table in one run ({@code ingest},
 * {@code maintain}): the file {@code <root>/_perflab_lock}, created only if absent (atomic on HDFS and local file
 * systems), naming its holder. The holder refreshes the file's modification time every {@link #HEARTBEAT}. A lock
 * whose holder is a dead process on this host, or whose heartbeat is older than {@link #STALE_AFTER}, is taken over,
 * atomically: of several runs that find the same lock stale at once, one takes it and the others are refused.
 */
public final class OutputLock implements AutoCloseable {
  public static final String FILE_NAME = "_perflab_lock";
  /** The lock {@code submit/nightly} holds for a whole pipeline run, beside the jobs' own {@link #FILE_NAME}. */
  public static final String NIGHTLY_FILE_NAME = "_perflab_nightly_lock";
  public static final Duration HEARTBEAT = Duration.ofSeconds(30);
  public static final Duration STALE_AFTER = Duration.ofMinutes(10);
  /** How many times a run tries to create the lock file when it vanishes between a failed create and its read. */
  private static final int MAX_ATTEMPTS = 5;
  private static final Logger LOG = LoggerFactory.getLogger(OutputLock.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Who holds a lock: the job, its host, its process id and start time, and when it took the lock. */
  public record Holder(String job, String host, long pid, long processStartMs, long acquiredMs) {
    static Holder current(String job, Clock clock) {
      ProcessHandle self = ProcessHandle.current();
      long started = self.info().startInstant().map(Instant::toEpochMilli).orElse(0L);
      return new Holder(job, hostName(), self.pid(), started, clock.millis());
    }

    /** Whether this holder is a process of this host that is no longer running. */
    boolean deadOnThisHost() {
      if (!host.equals(hostName())) {
        return false;
      }
      Optional<ProcessHandle> process = ProcessHandle.of(pid);
      if (process.isEmpty() || !process.get().isAlive()) {
        return true;
      }
      long started = process.get().info().startInstant().map(Instant::toEpochMilli).orElse(0L);
      return processStartMs != 0 && started != 0 && started != processStartMs;
    }

    String describe() {
      return String.format("%s, pid %d on %s, since %s", job, pid, host, Instant.ofEpochMilli(acquiredMs));
    }
  }

  /** Another live run holds the root; the caller should exit 1 and ask the user to rerun later. */
  public static final class HeldException extends RuntimeException {
    HeldException(String message) {
      super(message);
    }
  }

  private final FileSystem fs;
  private final Path file;
  /** Refreshes the lock file; null for a share ({@link #shareInThisProcess}), which the lock's holder refreshes. */
  private final ScheduledExecutorService heartbeat;

  /** Locks this process holds for every run in it, by qualified lock file ({@link #shareInThisProcess}). */
  private static final Map<String, OutputLock> SHARED = new java.util.concurrent.ConcurrentHashMap<>();

  private OutputLock(FileSystem fs, Path file) {
    this.fs = fs;
    this.file = file;
    this.heartbeat = null;
  }

  private OutputLock(FileSystem fs, Path file, Clock clock) {
    this.fs = fs;
    this.file = file;
    this.heartbeat = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, "perflab-lock-heartbeat");
      thread.setDaemon(true);
      return thread;
    });
    heartbeat.scheduleAtFixedRate(() -> touch(clock), HEARTBEAT.toSeconds(), HEARTBEAT.toSeconds(), TimeUnit.SECONDS);
  }

  /**
   * Takes the lock on {@code root} for {@code job}, taking over a stale one.
   *
   * @throws HeldException when a live run holds it
   */
  public static OutputLock acquire(FileSystem fs, Path root, String job, Clock clock) {
    return acquire(fs, root, FILE_NAME, job, clock);
  }

  /**
   * Takes the lock file {@code fileName} under {@code root} for {@code job}, taking over a stale one.
   *
   * @throws HeldException when a live run holds it
   */
  public static OutputLock acquire(FileSystem fs, Path root, String fileName, String job, Clock clock) {
    Path file = new Path(root, fileName);
    OutputLock shared = SHARED.get(fs.makeQualified(file).toString());
    if (shared != null) {
      return new OutputLock(fs, shared.file);
    }
    Holder me = Holder.current(job, clock);
    try {
      fs.mkdirs(root);
      for (int attempt = 1; !tryCreate(fs, file, me); attempt++) {
        Optional<Holder> holder = readHolder(fs, file);
        long heartbeatMs;
        try {
          heartbeatMs = fs.getFileStatus(file).getModificationTime();
        } catch (FileNotFoundException released) {
          // Released (or removed by a taker) between our create and this read: try to create it again, a few times.
          if (attempt < MAX_ATTEMPTS) {
            continue;
          }
          throw new HeldException(String.format(
              "Cannot %s: other PerfLab runs keep taking and releasing the output root's lock (%s; rerun)",
              action(fileName, job), file));
        }
        boolean stale = clock.millis() - heartbeatMs > STALE_AFTER.toMillis();
        // An unreadable lock file with a fresh heartbeat is a lock being written by a run starting right now: held.
        boolean live = !stale && holder.map(h -> !h.deadOnThisHost()).orElse(true);
        if (live) {
          throw new HeldException(String.format(
              "Cannot %s: another PerfLab run holds the output root (%s; rerun when it has ended, or delete %s if "
                  + "that process is gone)", action(fileName, job), holder.map(Holder::describe)
                  .orElse("a run starting now"), file));
        }
        LOG.warn("Taking over the lock of a run that ended without releasing it ({})",
            holder.map(Holder::describe).orElse("unreadable lock file"));
        if (!removeStale(fs, file, holder, heartbeatMs) || !tryCreate(fs, file, me)) {
          throw new HeldException(String.format(
              "Cannot %s: another PerfLab run took the output root's lock at the same moment (%s; rerun)",
              action(fileName, job), file));
        }
        break;
      }
      return new OutputLock(fs, file, clock);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot lock output root: " + e.getMessage() + " (" + file + ")", e);
    }
  }

  /**
   * Removes the stale lock {@code file} whose holder was read as {@code holder} (and whose heartbeat was
   * {@code heartbeatMs}), unless another run takes it over at the same time. Atomic: the taker first creates, only if
   * absent, a takeover marker named after that holder ({@code <file>.takeover-<host>-<pid>-<acquired>}), which only
   * one of several takers of the same stale lock can create; the winner then checks that the lock file is still that
   * holder's (not a newer lock another taker made after removing it) before deleting it, and deletes its marker.
   * Returns false when another run took the lock over first.
   */
  private static boolean removeStale(FileSystem fs, Path file, Optional<Holder> holder, long heartbeatMs)
      throws IOException {
    String generation = holder.map(h -> h.host() + "-" + h.pid() + "-" + h.acquiredMs())
        .orElse("unreadable-" + heartbeatMs).replaceAll("[^A-Za-z0-9._-]", "_");
    Path marker = new Path(file.getParent(), file.getName() + ".takeover-" + generation);
    OutputStream claim;
    try {
      claim = createNew(fs, marker);
    } catch (IOException e) {
      return false; // another taker holds the marker of this stale lock (or the store refused: not ours either way)
    }
    try {
      claim.close();
      if (!fs.exists(file)) {
        return true; // removed by an earlier taker, which has released the lock since: create it if absent
      }
      boolean same = readHolder(fs, file).equals(holder)
          && (holder.isPresent() || fs.getFileStatus(file).getModificationTime() == heartbeatMs);
      return same && fs.delete(file, false);
    } finally {
      fs.delete(marker, false);
    }
  }

  /**
   * Creates {@code file} only if it is absent, atomically: HDFS's NameNode refuses the second of two creates; Hadoop's
   * local file system checks and then creates, so on {@code file:} the file is created with {@code O_EXCL}
   * ({@link StandardOpenOption#CREATE_NEW}).
   *
   * @throws FileAlreadyExistsException when it exists
   */
  static OutputStream createNew(FileSystem fs, Path file) throws IOException {
    if (!"file".equals(fs.getScheme())) {
      return fs.create(file, false);
    }
    java.nio.file.Path local = java.nio.file.Path.of(fs.makeQualified(file).toUri());
    try {
      return Files.newOutputStream(local, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    } catch (java.nio.file.FileAlreadyExistsException e) {
      throw new FileAlreadyExistsException(file + " already exists");
    }
  }

  /** How the refusal names what could not be done: the job, or "run the nightly pipeline" for the nightly lock. */
  private static String action(String fileName, String job) {
    return fileName.equals(NIGHTLY_FILE_NAME) ? "run the nightly pipeline" : job;
  }

  private static boolean tryCreate(FileSystem fs, Path file, Holder me) throws IOException {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("job", me.job());
    json.put("host", me.host());
    json.put("pid", me.pid());
    json.put("process_start_ms", me.processStartMs());
    json.put("acquired_ms", me.acquiredMs());
    OutputStream out;
    try {
      out = createNew(fs, file);
    } catch (FileAlreadyExistsException e) {
      return false;
    } catch (IOException e) {
      // Some stores report a lost create race as a plain IOException: the file is there, written by the winner.
      if (fs.exists(file)) {
        return false;
      }
      throw e;
    }
    // The file is this run's: a failed write (a storage failure, such as HDFS without a live DataNode) is reported
    // as that failure, never as another run holding the lock, and the half-written file is removed.
    try {
      try {
        out.write(JSON.writeValueAsBytes(json));
      } catch (IOException e) {
        // A failed write usually fails close() with the same exception: report the write's, once.
        closeQuietly(out);
        throw e;
      }
      out.close();
      return true;
    } catch (IOException e) {
      deleteQuietly(fs, file, e);
      throw e;
    }
  }

  private static void deleteQuietly(FileSystem fs, Path file, IOException cause) {
    try {
      fs.delete(file, false);
    } catch (IOException e) {
      cause.addSuppressed(e);
    }
  }

  private static void closeQuietly(OutputStream out) {
    try {
      out.close();
    } catch (IOException ignored) {
      // Already failing with the write's exception.
    }
  }

  /** The holder recorded in a lock file, or empty when the file is gone or unreadable. */
  public static Optional<Holder> readHolder(FileSystem fs, Path file) {
    try (InputStream in = fs.open(file)) {
      Map<?, ?> json = JSON.readValue(in, Map.class);
      return Optional.of(new Holder(String.valueOf(json.get("job")), String.valueOf(json.get("host")),
          ((Number) json.get("pid")).longValue(), ((Number) json.get("process_start_ms")).longValue(),
          ((Number) json.get("acquired_ms")).longValue()));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  private void touch(Clock clock) {
    try {
      fs.setTimes(file, clock.millis(), -1);
    } catch (IOException e) {
      LOG.warn("Cannot refresh the output root's lock: {} ({})", e.getMessage(), file);
    }
  }

  /** The lock file this instance holds. */
  public Path file() {
    return file;
  }

  /**
   * Shares this lock with every run in this process until it is closed: {@link #acquire} of the same lock file then
   * returns a share, which holds nothing of its own (closing it releases nothing). The nightly job, which runs its
   * steps in threads of its driver, holds the jobs' lock for the whole night this way; its steps, each of which takes
   * the lock alone, run beside one another, and a run of another process is still refused.
   */
  public OutputLock shareInThisProcess() {
    if (heartbeat == null) {
      throw new IllegalStateException("Cannot share the output root's lock: this is a share of it (" + file + ")");
    }
    SHARED.put(fs.makeQualified(file).toString(), this);
    return this;
  }

  @Override
  public void close() {
    if (heartbeat == null) {
      return; // a share: its holder releases the lock
    }
    SHARED.remove(fs.makeQualified(file).toString(), this);
    heartbeat.shutdownNow();
    try {
      fs.delete(file, false);
    } catch (IOException e) {
      LOG.warn("Cannot release the output root's lock: {} ({})", e.getMessage(), file);
    }
  }

  static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "unknown-host";
    }
  }
}
