package org.perflab.jobs;

import org.perflab.jobs.cli.Preflight;
import org.perflab.jobs.cli.RunSummary;
import org.perflab.jobs.cli.SessionCommand;
import org.perflab.jobs.cli.JobOutcome;
import org.perflab.jobs.cli.TextFiles;
import java.time.Clock;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.perflab.spark.costmodel.CodecCostSums;
import org.perflab.costmodel.Codec;
import org.perflab.costmodel.CodecCostTable;
import org.perflab.spark.costmodel.CostModelPairs;
import org.perflab.costmodel.PairPrediction;
import org.perflab.costmodel.SerializerKind;
import org.perflab.spark.costmodel.StageCosts;
import org.perflab.errors.BadInputException;
import org.perflab.spark.sweep.SweptModels;
import org.perflab.table.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code perflab stage-costs}: estimates reference 000's per-byte and per-record costs of every stage attempt from the
 * ingest {@code tasks} table (NNLS over its successful tasks) and writes {@code stage_costs}, incrementally: only the
 * logs ingested since its last run are recomputed. Usage:
 *
 * <pre>
 * submit/perflab stage-costs --input ROOT [--output ROOT] [--full] [--codec-table FILE]
 *     [--pairs FILE --dag-models DIR [--pairs-output FILE]]
 * </pre>
 *
 * <p>Options: docs/jobs.md#stage-costs; the table: docs/tables.md#stage_costs.
 */
@Command(
    name = "stage-costs",
    mixinStandardHelpOptions = true,
    description = "Estimate per-stage cost statistics (ns/byte, ns/record) from the ingest tasks table by NNLS;"
        + " write stage_costs (incrementally).")
public final class StageCostsJob implements SessionCommand {
  private static final Logger LOG = LoggerFactory.getLogger(StageCostsJob.class);

  @Option(names = "--input", required = true, paramLabel = "ROOT", description = "Output root of ingest.")
  String input;

  @Option(names = "--output", paramLabel = "ROOT",
      description = "Where stage_costs and the watermark go. Default: the --input root.")
  String output;

  @Option(names = "--full", description = "Recompute every log, not only those ingested since the last run.")
  boolean full;

  @Option(names = "--codec-table", paramLabel = "FILE",
      description = "Also write the codec and serializer cost table (CSV) of the input's runs to this local file.")
  String codecTable;

  @Option(names = "--pairs", paramLabel = "FILE",
      description = "Also predict run B of each corpus pair in this CSV (setting,app_a,app_b) from run A, by the"
          + " phase-cost what-if and by the baseline rule, and print the |error| per setting. Needs --dag-models.")
  String pairs;

  @Option(names = "--dag-models", paramLabel = "DIR",
      description = "With --pairs: the dag_models table that model wrote for the pairs' runs.")
  String dagModels;

  @Option(names = "--pairs-output", paramLabel = "FILE",
      description = "With --pairs: also write every stage and job prediction to this local CSV file.")
  String pairsOutput;

  @Override
  public String appName() {
    return "perflab stage-costs";
  }

  @Override
  public Work prepare() {
    StageCosts.Options options = new StageCosts.Options(input, output == null ? input : output, full);
    BadInputException.require(pairs == null || dagModels != null,
        "Cannot predict the pairs: --pairs needs --dag-models DIR (%s)", pairs);
    BadInputException.require(pairs != null || (dagModels == null && pairsOutput == null),
        "Cannot use --dag-models or --pairs-output: they go with --pairs FILE (%s, %s)", dagModels, pairsOutput);
    Preflight.of(StageCosts.JOB).ingestTables("--input", options.input(), Table.TASKS, Table.INGEST_STATUS)
        .outputRoot("--output", options.output());
    List<CostModelPairs.Pair> pairList = pairs == null ? List.of()
        : CostModelPairs.parse(TextFiles.read(pairs, "pairs file " + pairs), pairs);
    return spark -> {
      LOG.info("Estimating stage costs of the tasks under {} into {}", options.input(), options.output());
      StageCosts.Summary summary = StageCosts.run(spark, options, Clock.systemUTC());
      JobOutcome outcome = JobOutcome.printed("stage-costs: " + summary.plan().mode().name().toLowerCase(java.util.Locale.ROOT) + " ("
          + summary.plan().reason() + "), " + summary.rows() + " stage rows written\n"
          + RunSummary.tables(spark, options.output(), java.util.List.of(StageCosts.TABLE)));
      if (codecTable != null) {
        writeCodecTable(spark, options);
      }
      if (!pairList.isEmpty()) {
        predictPairs(spark, options, pairList);
      }
      return outcome;
    };
  }

  /**
   * Predicts each pair's run B from run A (phase-cost and baseline), prints the error table per setting, and writes
   * every row to {@code --pairs-output} when given.
   */
  private void predictPairs(SparkSession spark, StageCosts.Options options, List<CostModelPairs.Pair> pairList) {
    CostModelPairs.Result result = CostModelPairs.predict(spark, options.input(), pairList,
        app -> SweptModels.model(spark, dagModels, app).model(), CodecCostTable.shipped());
    List<PairPrediction.Row> rows = result.rows();
    StringBuilder out = new StringBuilder();
    result.notes().forEach(n -> out.append("stage-costs: pair ").append(n).append('\n'));
    out.append("stage-costs: ").append(pairList.size()).append(" pairs predicted (run B from run A; mean |error| in"
        + " percent)\n").append(PairPrediction.SUMMARY_HEADER).append('\n');
    PairPrediction.summarise(rows).forEach(s -> out.append(s.line()).append('\n'));
    RunSummary.print(out.toString());
    if (pairsOutput != null) {
      StringBuilder csv = new StringBuilder(PairPrediction.CSV_HEADER).append('\n');
      rows.forEach(r -> csv.append(PairPrediction.csv(r)).append('\n'));
      TextFiles.writeAtomically(pairsOutput, csv.toString());
    }
  }

  /** Writes the codec table of the input's runs, headed by the command and the date, relative to lz4 / Java. */
  private void writeCodecTable(SparkSession spark, StageCosts.Options options) {
    CodecCostTable table = CodecCostTable.of(CodecCostSums.of(spark, options.input()),
        Codec.LZ4, SerializerKind.JAVA);
    StringBuilder csv = new StringBuilder()
        .append("# Shuffle costs per codec and serializer: docs/costmodel.md#codec-and-serializer-costs\n")
        .append("# Written ").append(java.time.LocalDate.now(java.time.ZoneOffset.UTC))
        .append(" by: perflab stage-costs --input ").append(options.input()).append(" --codec-table ")
        .append(codecTable).append('\n').append(CodecCostTable.HEADER).append('\n');
    table.entries().forEach(e -> csv.append(e.csv()).append('\n'));
    try {
      java.nio.file.Files.writeString(java.nio.file.Path.of(codecTable), csv.toString());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("Cannot write the codec table " + codecTable, e);
    }
    RunSummary.print("stage-costs: codec table of " + table.entries().size() + " settings written to " + codecTable
        + "\n");
  }
}
