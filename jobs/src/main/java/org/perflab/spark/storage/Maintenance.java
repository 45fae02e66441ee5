package org.perflab.spark.storage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delta.tables.DeltaTable;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Map;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.perflab.errors.BadInputException;

/**
 * Keeps a table's file count bounded: {@code OPTIMIZE} bin-packs files smaller than
 * {@link DeltaSessions#TARGET_FILE_BYTES} into files of about that size, and {@code VACUUM} deletes files that no
 * version within the retention reads. Neither changes what the current version holds.
 */
public final class Maintenance {
  /** {@code VACUUM}'s default retention, and Delta's own default: 7 days. */
  public static final Duration DEFAULT_RETENTION = Duration.ofDays(7);
  private static final String SHUFFLE_PARTITIONS = "spark.sql.shuffle.partitions";
  private static final String LISTING_PARALLELISM = "spark.sql.sources.parallelPartitionDiscovery.parallelism";
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * Files below which a table is not compacted: {@link DeltaSessions#AUTO_COMPACT_MIN_FILES}, the count at which Delta's
   * auto compaction compacts a table too. An ingest run appends one file per table, so the nightly compacts each table
   * about once a week rather than every night: each {@code OPTIMIZE} rewrites all of a small table's files and costs
   * about a second of Spark jobs, 11 to 16 s per night over the 11 tables ingest appends to (docs/benchmarks.md), while
   * reading a table of up to 7 small files costs no more tasks than reading one.
   */
  public static final int DEFAULT_COMPACT_MIN_FILES = DeltaSessions.AUTO_COMPACT_MIN_FILES;

  private final SparkSession spark;
  private final TableStore store;
  private final Clock clock;
  private final int compactMinFiles;

  public Maintenance(SparkSession spark, TableStore store) {
    this(spark, store, Clock.systemUTC(), DEFAULT_COMPACT_MIN_FILES);
  }

  /**
   * {@code clock} decides which tables are old enough for {@code VACUUM} to have anything to delete; a table is
   * compacted once it holds at least {@code compactMinFiles} files (at least 2).
   */
  public Maintenance(SparkSession spark, TableStore store, Clock clock, int compactMinFiles) {
    BadInputException.require(compactMinFiles >= 2,
        "Cannot maintain: a table needs at least 2 files to be compacted (%s)", compactMinFiles);
    this.spark = spark;
    this.store = store;
    this.clock = clock;
    this.compactMinFiles = compactMinFiles;
  }

  /** One table's maintenance: files of its current version before and after, and whether it was vacuumed. */
  public record Outcome(String table, FileStats before, FileStats after, boolean vacuumed) {}

  /**
   * OPTIMIZE and then VACUUM (with {@code retention}; none when null) every Delta table under the root, in name
   * order. Each step is its own Delta commit, so a run killed midway leaves every table readable. A table of fewer
   * files than the compaction threshold is not compacted ({@link #DEFAULT_COMPACT_MIN_FILES}), and a table younger
   * than the retention is not vacuumed (nothing in it can have expired, see {@link #mayHoldExpiredFiles}): both would
   * only cost Spark jobs.
   */
  public List<Outcome> maintainAll(Duration retention, TestPause pause) {
    // VACUUM lists a table's files in spark.sql.sources.parallelPartitionDiscovery.parallelism tasks (Spark's
    // default: 10,000) and OPTIMIZE and VACUUM shuffle in spark.sql.shuffle.partitions (200). PerfLab's tables hold a
    // few files each, so for the run those become a few tasks per core, unless the user set them.
    String small = Integer.toString(Math.max(2, spark.sparkContext().defaultParallelism()));
    return SessionConf.unlessSet(spark, Map.of(SHUFFLE_PARTITIONS, small, LISTING_PARALLELISM, small),
        () -> maintainEach(retention, pause));
  }

  private List<Outcome> maintainEach(Duration retention, TestPause pause) {
    List<Outcome> outcomes = new ArrayList<>();
    List<String> tables = new ArrayList<>(store.tableDirectories());
    Collections.sort(tables);
    for (String table : tables) {
      if (!store.exists(table)) {
        continue;
      }
      FileStats before = fileStats(table);
      boolean compacted = before.files() >= compactMinFiles;
      if (compacted) {
        compact(table);
      }
      pause.at(TestPause.Point.DURING_MAINTENANCE);
      boolean vacuumed = retention != null && mayHoldExpiredFiles(table, retention);
      if (vacuumed) {
        vacuum(table, retention);
      }
      outcomes.add(new Outcome(table, before, compacted ? fileStats(table) : before, vacuumed));
    }
    return outcomes;
  }

  /**
   * Whether {@code VACUUM} with {@code retention} could delete anything: false only when the table's first commit is
   * younger than the retention, so that no file the table ever wrote or dropped is older than it. Read from the commit
   * file's modification time (no Spark job); a table whose first commit was cleaned from its log is old enough. A file
   * this skips is deleted by the first run after the table has aged past the retention.
   */
  boolean mayHoldExpiredFiles(String table, Duration retention) {
    Path first = new Path(store.path(table), "_delta_log/00000000000000000000.json");
    try {
      FileStatus status = store.fileSystem().getFileStatus(first);
      long ageMs = clock.millis() - status.getModificationTime();
      return ageMs >= retention.toMillis();
    } catch (FileNotFoundException e) {
      return true;
    } catch (IOException e) {
      throw new UncheckedIOException(
          String.format("Cannot read the first commit of table %s: %s (%s)", table, e.getMessage(), first), e);
    }
  }

  /** Files and bytes of a table's current version (not files removed and waiting for {@code VACUUM}). */
  public record FileStats(long files, long bytes) {}

  /**
   * The files and bytes of {@code table}'s current version: from the version's checksum file when it has one
   * ({@link #checksumStats}, no Spark job), else from {@code DeltaTable.detail()}, which loads a snapshot in Spark
   * jobs. On a night of small tables the snapshots were most of {@code maintain}'s time.
   */
  public FileStats fileStats(String table) {
    return checksumStats(table).orElseGet(() -> detailStats(table));
  }

  /** The files and bytes of {@code table}'s current version from {@code DeltaTable.detail()}. */
  FileStats detailStats(String table) {
    Row detail = DeltaTable.forPath(spark, store.path(table).toString()).detail()
        .select("numFiles", "sizeInBytes").first();
    return new FileStats(detail.getLong(0), detail.getLong(1));
  }

  /**
   * The files and bytes of {@code table}'s latest commit from its version checksum file,
   * {@code _delta_log/<version>.crc} ({@code numFiles} and {@code tableSizeBytes}; the Delta protocol's "Version
   * Checksum File", which Delta writes after each commit). Empty when the latest commit has no readable checksum
   * file, e.g. while it is being written or when the writer turned them off.
   */
  Optional<FileStats> checksumStats(String table) {
    try {
      List<Long> versions = DeltaCommits.versions(store.fileSystem(), store.path(table));
      if (versions.isEmpty()) {
        return Optional.empty();
      }
      JsonNode checksum;
      Path file = DeltaCommits.checksumFile(store.path(table), versions.get(versions.size() - 1));
      try (var in = store.fileSystem().open(file)) {
        checksum = JSON.readTree(in);
      }
      JsonNode files = checksum.get("numFiles");
      JsonNode bytes = checksum.get("tableSizeBytes");
      return files != null && files.canConvertToLong() && bytes != null && bytes.canConvertToLong()
          ? Optional.of(new FileStats(files.asLong(), bytes.asLong())) : Optional.empty();
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** {@code OPTIMIZE}: bin-packs small files; a no-op when there is nothing to pack. */
  public void compact(String table) {
    DeltaTable.forPath(spark, store.path(table).toString()).optimize().executeCompaction();
  }

  /**
   * {@code VACUUM} with {@code retention}: deletes files no version younger than it reads. Below Delta's 7-day safety
   * check the check is turned off for this session, since the caller asked for it.
   */
  public void vacuum(String table, Duration retention) {
    BadInputException.require(!retention.isNegative(),
        "Cannot vacuum: the retention must not be negative (%s)", retention);
    if (retention.compareTo(DEFAULT_RETENTION) < 0) {
      spark.conf().set("spark.databricks.delta.retentionDurationCheck.enabled", "false");
    }
    DeltaTable.forPath(spark, store.path(table).toString()).vacuum(retention.toMillis() / 3_600_000.0);
  }
}
