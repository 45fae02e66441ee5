package org.perflab.spark.storage;

import static org.apache.spark.sql.functions.col;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.perflab.errors.Actions;
import org.perflab.errors.BadInputException;
import org.perflab.table.KeyColumns;
import org.perflab.table.Table;

/**
 * Incremental recomputation for the jobs derived from the ingest tables ({@code features}, {@code diagnose},
 * {@code cluster}): which logs changed since the job's last successful run, how to write their rows, and the
 * watermark that remembers the run.
 *
 * <p>The watermark is {@code <output>/_perflab_state/<job>.json},
 * {@code {"job": ..., "ingest_run_id": ..., "rules_version": ...}}: the newest {@code ingest_status.run_id} the job's
 * last successful run consumed, and the version of the job's rules it ran (a watermark without one was written by
 * version 1). A job raises its rules version when what it computes from the same logs changes, so that the rows of
 * logs it will not recompute incrementally are not left computed by the old rules. A run reads the watermark and
 * {@link #plan}s:
 *
 * <ul>
 *   <li>{@link Mode#FULL}: no watermark, {@code --full}, a watermark of other rules, or one of the job's output tables
 *       missing. Everything is recomputed and each table overwritten.
 *   <li>{@link Mode#INCREMENTAL}: the logs whose {@code ingest_status.run_id} is newer than the watermark (re-ingested,
 *       superseded and new logs included) are recomputed, and their rows replaced with
 *       {@link TableStore#replaceLogs}; a log that no longer yields rows (superseded, failed) loses its old rows.
 *   <li>{@link Mode#UP_TO_DATE}: no log changed; nothing to write.
 * </ul>
 *
 * <p>After every table is written, {@link #commit} writes the watermark: a run that fails before leaves the old
 * watermark, so the next run recomputes the same logs again.
 */
public final class ChangedLogs {
  /** The directory under the output root that holds the derived jobs' watermarks. */
  public static final String STATE_DIRECTORY = "_perflab_state";

  /** How a run recomputes. */
  public enum Mode {
    FULL,
    INCREMENTAL,
    UP_TO_DATE
  }

  /**
   * What a run recomputes.
   *
   * @param mode full, incremental or nothing
   * @param sinceRunId the watermark read (the last ingest run consumed), when there was one
   * @param latestRunId the newest {@code run_id} in {@code ingest_status}; the watermark this run writes (empty when
   *     {@code ingest_status} is empty)
   * @param logIds in incremental mode, the logs to recompute; empty otherwise
   * @param reason why the mode: "--full", "no watermark", "table X missing", "N logs changed since R"
   */
  public record Plan(Mode mode, Optional<String> sinceRunId, Optional<String> latestRunId, Set<String> logIds,
      String reason) {
    public Plan {
      logIds = Set.copyOf(logIds);
    }

    /** Whether rows of only some logs are recomputed. */
    public boolean incremental() {
      return mode == Mode.INCREMENTAL;
    }

    /** {@code rows} restricted to the logs to recompute in incremental mode; unchanged otherwise. */
    public Dataset<Row> restrict(Dataset<Row> rows) {
      return incremental() ? rows.where(col(KeyColumns.LOG_ID).isin(logIds.toArray())) : rows;
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The rules version of a job that never raised it, and of a watermark written before rules versions. */
  public static final int FIRST_RULES_VERSION = 1;

  private final TableStore input;
  private final TableStore output;
  private final String job;
  private final int rulesVersion;

  /**
   * @param input the ingest output root ({@code ingest_status} is read there)
   * @param output the job's output root (its tables and its watermark)
   * @param job the job's name, e.g. {@code features}
   * @param rulesVersion the version of the job's rules: a watermark of another version makes the run full
   */
  public ChangedLogs(TableStore input, TableStore output, String job, int rulesVersion) {
    this.input = input;
    this.output = output;
    this.job = job;
    this.rulesVersion = rulesVersion;
  }

  /** A job at its {@link #FIRST_RULES_VERSION}. */
  public ChangedLogs(TableStore input, TableStore output, String job) {
    this(input, output, job, FIRST_RULES_VERSION);
  }

  /**
   * Decides what to recompute. Collects only {@code ingest_status}'s log ids and run ids, one row per log.
   *
   * @param full recompute everything ({@code --full})
   * @param tables the job's output tables: if one is missing, the run is full
   */
  public Plan plan(boolean full, Collection<String> tables) {
    Dataset<Row> status = input.read(Table.INGEST_STATUS).orElseThrow(() -> new BadInputException(String.format(
        "Cannot %s: no ingest tables under %s (run perflab ingest --output %s first)", Actions.of(job), input.root(),
        input.root())));
    Optional<String> latest = Optional.ofNullable(status.agg(functions.max("run_id")).first().getString(0));
    Optional<JsonNode> state = readWatermark();
    Optional<String> since = runId(state);
    if (full) {
      return new Plan(Mode.FULL, since, latest, Set.of(), "--full");
    }
    if (since.isEmpty()) {
      return new Plan(Mode.FULL, since, latest, Set.of(), "no watermark " + watermarkPath());
    }
    int watermarkRules = rulesVersion(state);
    if (watermarkRules != rulesVersion) {
      return new Plan(Mode.FULL, since, latest, Set.of(), String.format("the %s rules changed since the last run"
          + " (version %d, now %d): every log recomputed", job, watermarkRules, rulesVersion));
    }
    for (String table : tables) {
      if (!output.exists(table)) {
        return new Plan(Mode.FULL, since, latest, Set.of(), "table " + table + " missing");
      }
    }
    List<String> changed = status.where(col("run_id").gt(since.get())).select(KeyColumns.LOG_ID).distinct()
        .as(org.apache.spark.sql.Encoders.STRING()).collectAsList();
    if (changed.isEmpty()) {
      return new Plan(Mode.UP_TO_DATE, since, latest, Set.of(), "no log changed since " + since.get());
    }
    return new Plan(Mode.INCREMENTAL, since, latest, new TreeSet<>(changed),
        changed.size() + " logs changed since " + since.get());
  }

  /** Writes {@code rows} of {@code table} as the plan says: overwrite when full, replace the changed logs' rows else. */
  public void write(Plan plan, String table, Dataset<Row> rows) {
    switch (plan.mode()) {
      case FULL -> output.overwrite(table, rows);
      case INCREMENTAL -> output.replaceLogs(table, rows, plan.logIds());
      case UP_TO_DATE -> { }
    }
  }

  /** Records the plan's latest ingest run as consumed; call after every table is written. */
  public void commit(Plan plan) {
    if (plan.latestRunId().isEmpty()) {
      return;
    }
    ObjectNode state = JSON.createObjectNode().put("job", job).put("ingest_run_id", plan.latestRunId().get())
        .put("rules_version", rulesVersion);
    Path file = watermarkPath();
    try {
      StateFiles.replace(output.fileSystem(), file, state);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write the " + job + " watermark: " + e.getMessage() + " (" + file + ")",
          e);
    }
  }

  /** The last ingest run the job consumed, or empty when it never completed a run here. */
  public Optional<String> watermark() {
    return runId(readWatermark());
  }

  private static Optional<String> runId(Optional<JsonNode> state) {
    return state.map(s -> s.get("ingest_run_id")).filter(runId -> !runId.isNull()).map(JsonNode::asText);
  }

  /** The rules version of a watermark's run; {@link #FIRST_RULES_VERSION} when it names none. */
  private static int rulesVersion(Optional<JsonNode> state) {
    return state.map(s -> s.get("rules_version")).filter(JsonNode::canConvertToInt).map(JsonNode::asInt)
        .orElse(FIRST_RULES_VERSION);
  }

  private Optional<JsonNode> readWatermark() {
    Path file = watermarkPath();
    FileSystem fs = output.fileSystem();
    try {
      if (!fs.exists(file)) {
        return Optional.empty();
      }
      try (InputStream in = fs.open(file)) {
        return Optional.ofNullable(JSON.readTree(in));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the " + job + " watermark: " + e.getMessage() + " (" + file + ")",
          e);
    }
  }

  /** {@code <output>/_perflab_state/<job>.json}. */
  public Path watermarkPath() {
    return new Path(output.fileSystem().makeQualified(new Path(output.root(), STATE_DIRECTORY)), job + ".json");
  }
}
