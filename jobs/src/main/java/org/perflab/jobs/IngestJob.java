package org.perflab.jobs;

import org.perflab.jobs.cli.BuildInfo;
import org.perflab.jobs.cli.Preflight;
import org.perflab.jobs.cli.SessionCommand;
import org.perflab.jobs.cli.JobOutcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.sql.SparkSession;
import org.perflab.errors.BadInputException;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.spark.ingest.Ingest;
import org.perflab.spark.ingest.IngestOptions;
import org.perflab.spark.ingest.IngestSummary;
import org.perflab.spark.ingest.RunManifest;
import org.perflab.spark.storage.DeltaSessions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code perflab ingest}: Spark event-log archives into Delta Lake tables. See docs/jobs.md. */
@Command(
    name = "ingest",
    mixinStandardHelpOptions = true,
    description = "Read Spark event logs (any version, layout and codec) into Delta Lake tables.")
public final class IngestJob implements SessionCommand {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(IngestJob.class);
  static final String SAMPLE_LOGS = "samples/spark-events";

  @Option(
      names = "--input",
      arity = "1..*",
      paramLabel = "PATH",
      description = "Logs, log directories, archive directories or globs, on any Hadoop file system."
          + " Default: the bundled sample logs.")
  List<String> inputs;

  @Option(names = "--output", paramLabel = "DIR", defaultValue = "perflab-output",
      description = "Root directory of the tables. Default: ${DEFAULT-VALUE}.")
  String output;

  @Option(names = "--incremental",
      description = "Skip logs ingested before with the same path, size and modification time.")
  boolean incremental;

  @Option(names = "--redaction-regex", paramLabel = "REGEX",
      description = "Redact property keys or values, and secrets in text, that match. Default: ${DEFAULT-VALUE}")
  String redactionRegex = Redactor.DEFAULT_PATTERN;

  @Option(names = "--min-age-seconds", paramLabel = "SECONDS", defaultValue = "0",
      description = "Leave logs modified less than this long ago for a later run (object stores show in-progress"
          + " logs late). Default: ${DEFAULT-VALUE}.")
  long minAgeSeconds;

  @Override
  public String appName() {
    return "perflab-ingest";
  }

  @Override
  public Work prepare() {
    IngestOptions options = options();
    Preflight preflight = Preflight.of("ingest");
    options.inputs().forEach(in -> preflight.matches("--input", in));
    preflight.outputRoot("--output", options.output());
    preflight.outputRootInsideInputs(options.inputs(), options.output())
        .ifPresent(root -> LOG.info(Preflight.skippingOutputRoot(root)));
    return spark -> {
      Instant started = Instant.now();
      IngestSummary summary = new Ingest(spark, options, Clock.systemUTC()).run();
      writeManifest(spark, options, summary, started);
      return JobOutcome.printed(summary.report());
    };
  }

  IngestOptions options() {
    BadInputException.require(minAgeSeconds >= 0,
        "Cannot use --min-age-seconds: it must not be negative (%d)", minAgeSeconds);
    List<String> paths = inputs == null || inputs.isEmpty() ? List.of(sampleLogs()) : inputs;
    return new IngestOptions(paths, output, incremental, redactionRegex, minAgeSeconds);
  }

  /** The bundled sample logs: under PERFLAB_HOME when the launcher set it, else under the working directory. */
  static String sampleLogs() {
    String home = System.getenv("PERFLAB_HOME");
    Path samples = home != null ? Paths.get(home, SAMPLE_LOGS) : Paths.get(SAMPLE_LOGS);
    BadInputException.require(Files.isDirectory(samples),
        "Cannot find the bundled sample logs: give --input (%s does not exist)", samples.toAbsolutePath());
    return samples.toAbsolutePath().toString();
  }

  private static void writeManifest(SparkSession spark, IngestOptions options, IngestSummary summary,
      Instant started) throws java.io.IOException {
    BuildInfo build = BuildInfo.current();
    Map<String, Object> manifest = new LinkedHashMap<>();
    manifest.put("job", "ingest");
    manifest.put("perflab_version", build.version());
    manifest.put("git_commit", build.gitCommit());
    manifest.put("spark_version", spark.version());
    manifest.put("delta_version", DeltaSessions.deltaVersion());
    manifest.put("table_format", "delta");
    manifest.put("run_id", summary.runId());
    manifest.put("schema_version", RunManifest.SCHEMA_VERSION);
    manifest.put("redaction_pattern", options.redactionPattern());
    Redactor redactor = new Redactor(options.redactionPattern());
    Map<String, Object> optionValues = new LinkedHashMap<>();
    optionValues.put("inputs", options.inputs().stream().map(redactor::redactText).toList());
    optionValues.put("output", redactor.redactText(options.output()));
    optionValues.put("incremental", options.incremental());
    optionValues.put("min_age_seconds", options.minAgeSeconds());
    manifest.put("options", optionValues);
    manifest.put("started_at", started.toString());
    manifest.put("finished_at", Instant.now().toString());
    manifest.put("summary", summary);
    org.apache.hadoop.fs.Path root = new org.apache.hadoop.fs.Path(options.output());
    FileSystem fs = root.getFileSystem(spark.sparkContext().hadoopConfiguration());
    RunManifest.write(fs, root, manifest);
  }
}
