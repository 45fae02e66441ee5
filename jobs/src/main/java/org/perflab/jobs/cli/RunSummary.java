package org.perflab.jobs.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import org.apache.spark.sql.SparkSession;
import org.perflab.spark.storage.DeltaSessions;
import org.perflab.spark.storage.TableStore;

/**
 * How every job that writes output ends its summary on stdout: where the output is, qualified (so that it can be
 * pasted into the next job or a Spark shell), then the run's log file:
 *
 * <pre>
 * model: 4 models built, 0 applications skipped, 6 predictions
 *   tables: file:/data/out/{dag_models,model_predictions} (Delta Lake)
 *   log: /repo/.perflab/logs/perflab-model-20250101-120000-4242.log
 * </pre>
 */
public final class RunSummary {
  private RunSummary() {}

  /** {@code "  tables: <root>/{a,b} (Delta Lake)"}, for an output root already qualified. */
  public static String tables(String qualifiedRoot, Collection<String> tables) {
    return "  tables: " + qualifiedRoot + "/{" + String.join(",", tables) + "} (Delta Lake)";
  }

  /** The tables line of the output root {@code root}, qualified by the session's file system. */
  public static String tables(SparkSession spark, String root, Collection<String> tables) {
    TableStore store = new TableStore(spark, root);
    return tables(store.fileSystem().makeQualified(store.root()).toString(), tables);
  }

  /** {@code "  output: <file>"}, the file qualified by its file system. */
  public static String output(String file) {
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(file);
    try {
      return "  output: " + path.getFileSystem(DeltaSessions.hadoopConfiguration()).makeQualified(path);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot open the file system of " + file + ": " + e.getMessage(), e);
    }
  }

  /** Prints {@code summary} on stdout, then {@code "  log: <file>"} when this run wrote a log file. */
  public static void print(String summary) {
    System.out.println(summary);
    Path log = ConsoleLogging.logFile();
    if (log != null && Files.exists(log)) {
      System.out.println("  log: " + log);
    }
  }
}
