package org.perflab.jobs.cli;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.util.VersionInfo;
import org.apache.spark.SparkConf;
import org.perflab.errors.Actions;
import org.perflab.errors.BadInputException;
import org.perflab.spark.storage.DeltaSessions;
import org.perflab.table.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks a job runs before any Spark work, so that a mistake costs a second and one line, not a Spark start and a
 * stack trace: every path's file-system scheme resolves, inputs exist, output roots are writable directories, and the
 * options fit the master. Each check throws {@link BadInputException} (exit 2) with a message in the house form
 * {@code Cannot <action>: <reason> (<value>)}, and returns this preflight so checks chain:
 *
 * <pre>{@code
 * Preflight.of("model").ingestTables("--input", input, Table.APPLICATIONS, Table.TASKS).outputRoot("--output", output);
 * }</pre>
 *
 * <p>The Hadoop configuration is the one Spark would use ({@code HADOOP_CONF_DIR}, {@code spark.hadoop.*} keys), built
 * without a SparkContext.
 */
public final class Preflight {
  private static final Logger LOG = LoggerFactory.getLogger(Preflight.class);
  private static final Pattern LOCAL_MASTER = Pattern.compile("local(?:\\[([^,\\]]+)(?:,\\s*(\\d+))?\\])?");
  private static final Pattern GLOB = Pattern.compile("[*?\\[\\]{}\\\\]");
  /** Spark's default event-log directory ({@code spark.eventLog.dir}). */
  public static final String DEFAULT_EVENT_LOG_DIR = "/tmp/spark-events";

  private final String action;
  private final Configuration hadoop;

  /**
   * @param action the job or what it does ({@link Actions#of}): "model" gives "Cannot model: ...", "features"
   *     "Cannot run features: ..."
   * @param hadoop the Hadoop configuration paths are resolved with
   */
  public Preflight(String action, Configuration hadoop) {
    this.action = Actions.of(action);
    this.hadoop = hadoop;
  }

  /** A preflight with the Hadoop configuration the job's session will use ({@link DeltaSessions#hadoopConfiguration}). */
  public static Preflight of(String action) {
    return new Preflight(action, DeltaSessions.hadoopConfiguration());
  }

  // ---- schemes --------------------------------------------------------------------------------------------------

  /** The {@code --packages} coordinate of the connector that adds each object-store scheme. */
  public static String connectorFor(String scheme) {
    String hadoopVersion = VersionInfo.getVersion();
    return switch (scheme) {
      case "s3a", "s3", "s3n" -> "org.apache.hadoop:hadoop-aws:" + hadoopVersion;
      case "abfs", "abfss", "wasb", "wasbs" -> "org.apache.hadoop:hadoop-azure:" + hadoopVersion;
      case "gs" -> "com.google.cloud.bigdataoss:gcs-connector:hadoop3-2.2.21";
      default -> null;
    };
  }

  /** Checks that {@code path}'s file-system scheme (or the default file system's) has a FileSystem on the classpath. */
  public Preflight scheme(String option, String path) {
    String scheme = schemeOf(option, path);
    try {
      FileSystem.getFileSystemClass(scheme, hadoop);
    } catch (IOException | RuntimeException | LinkageError e) {
      // UnsupportedFileSystemException when nothing names the scheme; a RuntimeException wrapping
      // ClassNotFoundException when core-default.xml names a class (S3AFileSystem) that is not on the classpath.
      String connector = connectorFor(scheme);
      String fix = connector == null
          ? "add the jar that provides it with --packages or --jars before the job name"
          : scheme.equals("s3") || scheme.equals("s3n")
              ? "write s3a:// and add it with --packages " + connector + " before the job name"
              : "add it with --packages " + connector + " before the job name";
      throw new BadInputException(String.format("Cannot %s: no Hadoop FileSystem for scheme %s on the classpath"
          + " (%s %s; %s)", action, scheme, option, path, fix), e);
    }
    return this;
  }

  private String schemeOf(String option, String path) {
    BadInputException.require(path != null && !path.isBlank(), "Cannot %s: %s is empty (give a path)", action,
        option);
    try {
      String scheme = new Path(path).toUri().getScheme();
      return (scheme != null ? scheme : FileSystem.getDefaultUri(hadoop).getScheme()).toLowerCase(Locale.ROOT);
    } catch (IllegalArgumentException e) {
      throw new BadInputException(String.format("Cannot %s: %s is not a valid path (%s; %s)", action, option, path,
          e.getMessage()), e);
    }
  }

  // ---- inputs ---------------------------------------------------------------------------------------------------

  /**
   * Checks that the ingest output root {@code root} holds every one of {@code tables}. A table exists when
   * {@code <root>/<table>/_delta_log} exists (Delta Lake) or, in the older layout, {@code <root>/<table>} is a
   * directory.
   */
  public Preflight ingestTables(String option, String root, Table... tables) {
    scheme(option, root);
    List<String> found = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    for (Table table : tables) {
      (ingestTableExists(root, table) ? found : missing).add(table.tableName());
    }
    String fix = "run perflab ingest --output " + root + " first";
    BadInputException.require(!found.isEmpty() || tables.length == 0, "Cannot %s: no ingest tables under %s (%s)",
        action, root, fix);
    BadInputException.require(missing.isEmpty(), "Cannot %s: no ingest table %s under %s (found %s; %s)", action,
        String.join(", ", missing), root, String.join(", ", found), fix);
    return this;
  }

  /**
   * Whether {@code <root>/<table>} is an ingest table: a Delta table ({@code <root>/<table>/_delta_log}) or a table of
   * the older Parquet layout (the directory alone); either way, {@code <root>/<table>} is a directory.
   */
  public boolean ingestTableExists(String root, Table table) {
    return isDirectory(new Path(root, table.tableName()));
  }

  /**
   * Checks that the output root {@code root} holds the Delta table {@code table} that the job {@code producer}
   * writes: "Cannot ACTION: no TABLE under ROOT (run perflab PRODUCER first)".
   */
  public Preflight jobTable(String option, String root, String table, String producer) {
    scheme(option, root);
    BadInputException.require(isDirectory(new Path(new Path(root, table), "_delta_log")),
        "Cannot %s: no %s under %s (run perflab %s first)", action, table, root, producer);
    return this;
  }

  /**
   * Checks that the output root {@code root} holds the Delta table {@code table} of the {@code features} job:
   * "Cannot ACTION: no TABLE table under ROOT (run perflab features --input ROOT first)", or, when the root holds no
   * ingest table either, "Cannot ACTION: no ingest tables under ROOT (run perflab ingest --output ROOT first)".
   */
  public Preflight featuresTable(String option, String root, String table) {
    scheme(option, root);
    if (isDirectory(new Path(new Path(root, table), "_delta_log"))) {
      return this;
    }
    boolean ingested = java.util.Arrays.stream(Table.values()).anyMatch(t -> ingestTableExists(root, t));
    BadInputException.require(ingested, "Cannot %s: no ingest tables under %s (run perflab ingest --output %s first)",
        action, root, root);
    throw new BadInputException(String.format("Cannot %s: no %s table under %s (run perflab features --input %s "
        + "first)", action, table, root, root));
  }

  /** Checks that {@code path} is an existing directory; {@code what} says what to give instead. */
  public Preflight directory(String option, String path, String what) {
    scheme(option, path);
    Optional<FileStatus> status = status(new Path(path));
    BadInputException.require(status.isPresent(), "Cannot %s: %s does not exist (%s; give %s)", action, option,
        path, what);
    BadInputException.require(status.get().isDirectory(), "Cannot %s: %s is not a directory (%s; give %s)", action,
        option, path, what);
    return this;
  }

  /** Checks that the path or glob matches at least one file or directory. */
  public Preflight matches(String option, String pathOrGlob) {
    scheme(option, pathOrGlob);
    Path pattern = new Path(pathOrGlob);
    FileStatus[] matches;
    try {
      matches = pattern.getFileSystem(hadoop).globStatus(pattern);
    } catch (IOException e) {
      throw new BadInputException(String.format("Cannot %s: %s cannot be listed (%s; %s)", action, option,
          pathOrGlob, e.getMessage()), e);
    }
    BadInputException.require(matches != null && matches.length > 0, "Cannot %s: nothing matches %s (%s)", action,
        option, pathOrGlob);
    return this;
  }

  // ---- outputs --------------------------------------------------------------------------------------------------

  /**
   * Checks that the output root is a writable directory, or can be created: it is not a regular file, and its nearest
   * existing ancestor is a writable directory.
   */
  public Preflight outputRoot(String option, String root) {
    scheme(option, root);
    Path path = new Path(root);
    Optional<FileStatus> status = status(path);
    if (status.isPresent()) {
      BadInputException.require(status.get().isDirectory(),
          "Cannot %s: the output root is a regular file, not a directory (%s %s)", action, option, root);
      BadInputException.require(writable(path), "Cannot %s: the output root is not writable (%s %s)", action,
          option, root);
      return this;
    }
    return creatable(option, root, path.getParent());
  }

  /**
   * Checks that a single output file can be written at {@code file}: it is not a directory, and its directory exists
   * and is writable, or can be created.
   */
  public Preflight outputFile(String option, String file) {
    scheme(option, file);
    Path path = new Path(file);
    Optional<FileStatus> status = status(path);
    if (status.isPresent()) {
      BadInputException.require(!status.get().isDirectory(),
          "Cannot %s: %s is a directory, not a file (%s; give the file to write, e.g. %s)", action, option, file,
          new Path(path, "result.json"));
    }
    return creatable(option, file, path.getParent());
  }

  /** Checks that {@code parent}, the directory {@code target} goes in, is writable or can be created. */
  private Preflight creatable(String option, String target, Path parent) {
    Path ancestor = parent;
    Optional<FileStatus> status = ancestor == null ? Optional.empty() : status(ancestor);
    while (ancestor != null && status.isEmpty()) {
      ancestor = ancestor.getParent();
      status = ancestor == null ? Optional.empty() : status(ancestor);
    }
    if (ancestor == null) {
      return this; // nothing exists up to the root: an object store bucket, say; the write will tell.
    }
    BadInputException.require(status.get().isDirectory(),
        "Cannot %s: %s cannot be created under a regular file (%s; %s is a file)", action, option, target, ancestor);
    BadInputException.require(writable(ancestor),
        "Cannot %s: %s cannot be created, the directory it goes in is not writable (%s; %s)", action, option, target,
        ancestor);
    return this;
  }

  /**
   * The output root, qualified, when it lies inside one of {@code inputs} (a directory, or a glob's directory part),
   * so that discovery must skip it: the output root is never read as input. Empty otherwise.
   */
  public Optional<Path> outputRootInsideInputs(List<String> inputs, String output) {
    Path root = qualified(output);
    for (String input : inputs) {
      Path directory = qualified(input);
      while (directory != null && GLOB.matcher(directory.toUri().getPath()).find()) {
        directory = directory.getParent();
      }
      if (directory != null && within(root, directory)) {
        return Optional.of(root);
      }
    }
    return Optional.empty();
  }

  /** Whether {@code path} is {@code root} or lies under it; both qualified (scheme and authority compared too). */
  public static boolean within(Path path, Path root) {
    if (!sameFileSystem(path, root)) {
      return false;
    }
    String p = stripSlash(path.toUri().getPath());
    String r = stripSlash(root.toUri().getPath());
    return p.equals(r) || p.startsWith(r.isEmpty() ? "/" : r + "/");
  }

  /** The line a job prints when it skips its own output root inside an input directory. */
  public static String skippingOutputRoot(Path root) {
    return "Skipping the output root inside the input: it is never read as input (" + root + ")";
  }

  private static boolean sameFileSystem(Path a, Path b) {
    return java.util.Objects.equals(a.toUri().getScheme(), b.toUri().getScheme())
        && java.util.Objects.equals(a.toUri().getAuthority(), b.toUri().getAuthority());
  }

  private static String stripSlash(String path) {
    return path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
  }

  // ---- Spark conf -----------------------------------------------------------------------------------------------

  /**
   * With {@code spark.eventLog.enabled}, makes sure the event-log directory exists before a SparkContext refuses to
   * start without it: creates it, or stops here with the path and how to make it.
   */
  public Preflight eventLogDirectory(SparkConf conf) {
    if (!conf.getBoolean("spark.eventLog.enabled", false)) {
      return this;
    }
    String dir = conf.get("spark.eventLog.dir", DEFAULT_EVENT_LOG_DIR);
    scheme("spark.eventLog.dir", dir);
    Path path = new Path(dir);
    Optional<FileStatus> status = status(path);
    if (status.isPresent()) {
      BadInputException.require(status.get().isDirectory(),
          "Cannot %s: the event-log directory is a regular file (spark.eventLog.dir=%s; point it at a directory)",
          action, dir);
      return this;
    }
    try {
      if (path.getFileSystem(hadoop).mkdirs(path)) {
        LOG.info("Created the event-log directory {}", dir);
        return this;
      }
    } catch (IOException e) {
      LOG.debug("Cannot create {}", dir, e);
    }
    throw new BadInputException(String.format("Cannot %s: the event-log directory does not exist and cannot be"
        + " created (spark.eventLog.dir=%s; create it, e.g. mkdir -p %s, or set --conf spark.eventLog.dir)", action,
        dir, path.toUri().getPath()));
  }

  /**
   * Checks that a local master names a thread count Spark can run: {@code local}, {@code local[N]} and
   * {@code local[N,F]} with N and F at least 1, or {@code local[*]} and {@code local[*,F]}. Other masters
   * ({@code local-cluster[...]}, {@code spark://}, {@code yarn}, ...) are Spark's to check. Catches, before Spark starts,
   * the usage mistakes Spark would report as a failure ({@code local[0]}, {@code local[-1]}, {@code local[x]}).
   */
  public Preflight master(String master) {
    String trimmed = master.trim();
    if (!trimmed.startsWith("local") || trimmed.startsWith("local-cluster")) {
      return this;
    }
    Matcher local = Pattern.compile("local(?:\\[\\s*(\\*|\\d+)\\s*(?:,\\s*(\\d+)\\s*)?])?").matcher(trimmed);
    boolean valid = local.matches() && (local.group(1) == null || local.group(1).equals("*")
        || Long.parseLong(local.group(1)) >= 1) && (local.group(2) == null || Long.parseLong(local.group(2)) >= 1);
    BadInputException.require(valid, "Cannot start Spark for %s: --master %s is not a local master Spark can run"
        + " (local, local[N] or local[N,F] with N and F >= 1, local[*])", action, master);
    return this;
  }

  /**
   * Checks that the master retries a failed task, for an option (such as {@code workload --fail-tasks}) that fails
   * tasks on purpose and needs them retried: plain {@code local[N]} never retries; {@code local[N,F]} tries F times;
   * other masters {@code spark.task.maxFailures} times.
   */
  public Preflight retriesTasks(String option, Object value, SparkConf conf) {
    String master = conf.get("spark.master", "local[*]").trim();
    Matcher local = LOCAL_MASTER.matcher(master);
    if (local.matches()) {
      String threads = local.group(1) == null ? "1" : local.group(1);
      int attempts = local.group(2) == null ? 1 : Integer.parseInt(local.group(2));
      BadInputException.require(attempts >= 2, "Cannot %s: %s %s needs task retries, and master %s never retries a"
          + " task (use --master 'local[%s,2]' or a cluster)", action, option, value, master, threads);
      return this;
    }
    int attempts = conf.getInt("spark.task.maxFailures", 4);
    BadInputException.require(attempts >= 2, "Cannot %s: %s %s needs task retries, and spark.task.maxFailures=%d"
        + " never retries a task (master %s; set --conf spark.task.maxFailures=2 or more)", action, option, value,
        attempts, master);
    return this;
  }

  // ---- file-system helpers --------------------------------------------------------------------------------------

  /** The path with the default file system's scheme and authority; relative paths against the working directory. */
  private Path qualified(String path) {
    try {
      Path p = new Path(path);
      Path workingDirectory = new Path(Paths.get("").toAbsolutePath().toUri());
      return p.makeQualified(FileSystem.getDefaultUri(hadoop), workingDirectory);
    } catch (IllegalArgumentException e) {
      throw new BadInputException(String.format("Cannot %s: %s is not a valid path (%s)", action, path,
          e.getMessage()), e);
    }
  }

  private Optional<FileStatus> status(Path path) {
    try {
      return Optional.of(path.getFileSystem(hadoop).getFileStatus(path));
    } catch (FileNotFoundException e) {
      return Optional.empty();
    } catch (IOException e) {
      // ParentNotDirectoryException and the like: a regular file on the way makes the path not exist.
      LOG.debug("Cannot stat {}", path, e);
      return Optional.empty();
    }
  }

  private boolean isDirectory(Path path) {
    return status(path).map(FileStatus::isDirectory).orElse(false);
  }

  /** Whether this process may create entries in the directory: access(2) locally, the FileSystem's check elsewhere. */
  private boolean writable(Path directory) {
    try {
      FileSystem fs = directory.getFileSystem(hadoop);
      if ("file".equals(fs.getScheme())) {
        return Files.isWritable(Paths.get(fs.makeQualified(directory).toUri()));
      }
      fs.access(directory, FsAction.WRITE);
      return true;
    } catch (AccessControlException e) {
      return false;
    } catch (IOException | RuntimeException e) {
      return true; // a store that cannot say (object stores): the write itself will tell.
    }
  }
}
