package org.perflab.jobs;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.perflab.errors.BadInputException;
import org.perflab.jobs.cli.JobOutcome;
import org.perflab.jobs.cli.Preflight;
import org.perflab.jobs.cli.RunSummary;
import org.perflab.jobs.cli.SessionCommand;
import org.perflab.spark.changes.ChangeTables;
import org.perflab.spark.changes.ComparedPair;
import org.perflab.spark.changes.ComparisonKind;
import org.perflab.spark.changes.ComparisonRow;
import org.perflab.spark.changes.Comparisons;
import org.perflab.spark.changes.RunInputs;
import org.perflab.spark.changes.RunPoint;
import org.perflab.spark.changes.StageMatch;
import org.perflab.spark.features.FeatureTables;
import org.perflab.spark.storage.OutputLock;
import org.perflab.spark.storage.TableStore;
import org.perflab.table.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code perflab compare}: any two runs side by side. Prints a short diff (the runs' wall times, the configuration
 * differences, the SQL plans, the data differences, the stages that changed most) and writes their rows of {@code comparisons}, replacing the
 * pair's earlier rows. Runs of different workloads need {@code --force}. Options: docs/jobs.md#compare.
 *
 * <pre>
 * submit/perflab compare --input ROOT --app APP_A --app APP_B [--force] [--output ROOT]
 * submit/perflab compare --input ROOT --workload W [--output ROOT]
 * </pre>
 */
@Command(
    name = "compare",
    mixinStandardHelpOptions = true,
    description = "Compare two runs side by side: configuration, data, and their stages aligned.")
public final class CompareJob implements SessionCommand {
  /** The job's name: its messages and its lock. */
  static final String JOB = "compare";

  /** Stage changes the printed diff shows. */
  static final int TOP_STAGES = 5;

  /**
   * The options of {@code compare}: two application ids (A then B) or one workload (its two latest runs).
   *
   * @param output the root of {@code comparisons}; null for {@code input}
   * @param force compare runs of different workloads
   */
  public record Options(String input, String output, List<String> apps, String workload, boolean force) {
    public Options {
      output = output == null ? input : output;
      apps = apps == null ? List.of() : List.copyOf(apps);
      BadInputException.require(workload == null ? apps.size() == 2 : apps.isEmpty(),
          "Cannot compare: give two --app or one --workload (%s)", apps.isEmpty() && workload == null
              ? "neither given" : workload != null ? "both given" : apps.size() + " --app given");
      BadInputException.require(apps.size() != 2 || !apps.get(0).equals(apps.get(1)),
          "Cannot compare: both --app name the same application (%s; give two different applications)",
          apps.isEmpty() ? "" : apps.get(0));
    }
  }

  /**
   * What a run compared.
   *
   * @param pair the runs, A then B
   * @param rows the rows written
   */
  public record Summary(ComparedPair pair, List<ComparisonRow> rows) {}

  @Option(names = "--input", required = true, paramLabel = "ROOT", description = "Output root of ingest and features.")
  String input;

  @Option(names = "--output", paramLabel = "ROOT", description = "Output root of the comparisons table. Default:"
      + " --input.")
  String output;

  @Option(names = "--app", paramLabel = "APP", description = "An application id; give it twice, A then B. Of several"
      + " attempts, the latest.")
  List<String> apps;

  @Option(names = "--workload", paramLabel = "W", description = "A workload id (workloads.workload_id): compare its"
      + " two latest runs by start time, the earlier as A.")
  String workload;

  @Option(names = "--force", description = "Compare runs of different workloads.")
  boolean force;

  @Override
  public String appName() {
    return "perflab compare";
  }

  @Override
  public Work prepare() {
    Options options = new Options(input, output, apps, workload, force);
    Preflight.of(JOB).featuresTable("--input", options.input(), FeatureTables.WORKLOADS_TABLE)
        .featuresTable("--input", options.input(), FeatureTables.APP_FEATURES_TABLE)
        .ingestTables("--input", options.input(), Table.STAGES, Table.TASKS, Table.PROPERTIES)
        .outputRoot("--output", options.output());
    return spark -> {
      Summary summary = run(spark, Clock.systemUTC(), options);
      return JobOutcome.printed(describe(summary) + "\n" + RunSummary.tables(spark, options.output(),
          List.of(ChangeTables.COMPARISONS_TABLE)));
    };
  }

  /**
   * Picks the two runs, compares them and replaces the pair's rows of {@code comparisons}, holding the output root's
   * lock while it writes.
   *
   * @throws BadInputException for an application or workload not under the root, or runs of different workloads
   *     without {@code force}
   */
  public static Summary run(SparkSession spark, Clock clock, Options options) {
    TableStore in = new TableStore(spark, options.input());
    RunInputs inputs = RunInputs.read(in, JOB);
    Dataset<Row> tasks = RunInputs.ingest(in, JOB, Table.TASKS);
    spark.sparkContext().setJobDescription("Compare two runs");
    List<RunPoint> runs = RunPoint.collect(inputs.workloads(), inputs.appFeatures());
    ComparedPair pair = Comparisons.requireComparable(options.workload() == null
        ? Comparisons.ofApps(runs, options.apps(), options.input())
        : Comparisons.latestOf(runs, options.workload(), options.input()), options.force());
    List<Comparisons.Side> sides = Comparisons.sides(inputs, tasks, pair);
    List<ComparisonRow> rows = Comparisons.rows(pair, sides.get(0), sides.get(1), clock.millis());
    TableStore out = new TableStore(spark, options.output());
    try (OutputLock lock = OutputLock.acquire(out.fileSystem(), out.root(), JOB, clock)) {
      out.ensure(ChangeTables.COMPARISONS_TABLE, ChangeTables.COMPARISONS);
      Dataset<Row> table = spark.createDataFrame(rows.stream().map(ComparisonRow::toRow).toList(),
          ChangeTables.COMPARISONS).coalesce(1);
      out.replaceWhere(ChangeTables.COMPARISONS_TABLE, table, pair.predicate());
    }
    return new Summary(pair, rows);
  }

  private static String differences(int count) {
    return count + (count == 1 ? " difference" : " differences");
  }

  /**
   * The printed diff: a headline, the wall time split, the resources, the configuration differences, the SQL plans, the
   * data differences, the stages that changed most.
   */
  static String describe(Summary summary) {
    List<ComparisonRow> rows = summary.rows();
    List<ComparisonRow> stages = of(rows, ComparisonKind.STAGE);
    StringBuilder text = new StringBuilder(headline(summary.pair(), rows, stages));
    text.append(split(of(rows, ComparisonKind.RUN)));
    text.append(resources(of(rows, ComparisonKind.RUN)));
    List<ComparisonRow> config = of(rows, ComparisonKind.CONFIGURATION);
    text.append(String.format(Locale.ROOT, "%nconfiguration: %s", differences(config.size())));
    config.forEach(r -> text.append(String.format(Locale.ROOT, "%n  %s %s -> %s", r.item(), unset(r.valueA()),
        unset(r.valueB()))));
    text.append(plan(of(rows, ComparisonKind.PLAN)));
    List<ComparisonRow> data = of(rows, ComparisonKind.DATA).stream().filter(r -> r.change() != 0).toList();
    text.append(String.format(Locale.ROOT, "%ndata: %s", differences(data.size())));
    data.forEach(r -> text.append(String.format(Locale.ROOT, "%n  %s %s -> %s%s", r.item(), count(r.amountA()),
        count(r.amountB()), ratio(r))));
    List<ComparisonRow> top = new ArrayList<>(stages);
    top.sort(Comparator.comparingDouble((ComparisonRow r) -> Math.abs(growth(r))).reversed());
    text.append(String.format(Locale.ROOT, "%nstages that changed most:"));
    top.stream().limit(TOP_STAGES).forEach(r -> text.append(String.format(Locale.ROOT, "%n  %+.1f s %s %s: %s -> %s",
        growth(r), r.match(), r.item(), seconds(r.amountA()), seconds(r.amountB()))));
    return text.toString();
  }

  private static String headline(ComparedPair pair, List<ComparisonRow> rows, List<ComparisonRow> stages) {
    ComparisonRow wall = of(rows, ComparisonKind.RUN).get(0);
    long matched = stages.stream().filter(r -> r.match() == StageMatch.MATCHED).count();
    long added = stages.stream().filter(r -> r.match() == StageMatch.ADDED).count();
    return String.format(Locale.ROOT, "compare: %s: wall time %s -> %s%s, %d stages aligned, %d added, %d removed",
        pair.describe(), seconds(wall.amountA()), seconds(wall.amountB()), ratio(wall), matched, added,
        stages.size() - matched - added);
  }

  /**
   * "wall time split: before the first stage 0.8 s -> 0.8 s, in stages ..., between stages ..., after the last ...":
   * where the wall time went, so that time gained or lost outside every stage shows; empty when a run's split is
   * unknown.
   */
  private static String split(List<ComparisonRow> run) {
    List<String> labels = List.of("before the first stage", "in stages", "between stages", "after the last");
    List<String> parts = new ArrayList<>();
    for (int i = 0; i < Comparisons.SPLIT_ITEMS.size(); i++) {
      ComparisonRow row = item(run, Comparisons.SPLIT_ITEMS.get(i));
      if (row == null || row.change() == null) {
        return "";
      }
      parts.add(labels.get(i) + " " + seconds(row.amountA()) + " -> " + seconds(row.amountB()));
    }
    return String.format(Locale.ROOT, "%nwall time split: %s", String.join(", ", parts));
  }

  /**
   * "resources: task slots 32 -> 2 (0.06x), task time 569.6 s -> 959.8 s (1.68x)": the task slots each run obtained
   * (its executors' cores) and the task time it spent, so that a run slower for fewer slots, or for more work, shows
   * at once, whatever its properties say (a standalone cluster with fewer workers sets none); empty without them.
   */
  private static String resources(List<ComparisonRow> run) {
    ComparisonRow slots = item(run, Comparisons.SLOTS_ITEM);
    ComparisonRow task = item(run, Comparisons.TASK_TIME_ITEM);
    if (slots == null || task == null) {
      return "";
    }
    return String.format(Locale.ROOT, "%nresources: task slots %s -> %s%s, task time %s -> %s%s",
        count(slots.amountA()), count(slots.amountB()), ratio(slots), seconds(task.amountA()), seconds(task.amountB()),
        ratio(task));
  }

  /** The row of {@code item} among {@code run}'s, or null. */
  private static ComparisonRow item(List<ComparisonRow> run, String item) {
    return run.stream().filter(r -> r.item().equals(item)).findFirst().orElse(null);
  }

  /** " (1.25x)": the row's ratio B ÷ A, or nothing without one. */
  private static String ratio(ComparisonRow row) {
    return row.ratio() == null ? "" : String.format(Locale.ROOT, " (%.2fx)", row.ratio());
  }

  private static String count(Double amount) {
    return amount == null ? "-" : String.format(Locale.ROOT, "%.0f", amount);
  }

  /**
   * "plan: the same (joins SortMergeJoin 1; plan ...)", "plan: changed" with both sides, "plan: only B has SQL", or
   * "plan: no SQL" when neither run has any.
   */
  private static String plan(List<ComparisonRow> plan) {
    if (plan.isEmpty()) {
      return String.format(Locale.ROOT, "%nplan: no SQL");
    }
    ComparisonRow row = plan.get(0);
    if (row.valueA() == null || row.valueB() == null) {
      return String.format(Locale.ROOT, "%nplan: only %s has SQL", row.valueA() == null ? "B" : "A");
    }
    return row.valueA().equals(row.valueB()) ? String.format(Locale.ROOT, "%nplan: the same (%s)", row.valueA())
        : String.format(Locale.ROOT, "%nplan: changed%n  %s -> %s", row.valueA(), row.valueB());
  }

  private static List<ComparisonRow> of(List<ComparisonRow> rows, ComparisonKind kind) {
    return rows.stream().filter(r -> r.kind() == kind).toList();
  }

  /** A stage's growth in s: B − A, an added stage's whole time, minus a removed stage's. */
  private static double growth(ComparisonRow r) {
    return (r.amountB() == null ? 0 : r.amountB()) - (r.amountA() == null ? 0 : r.amountA());
  }

  private static String seconds(Double s) {
    return s == null ? "-" : String.format(Locale.ROOT, "%.1f s", s);
  }

  private static String unset(String value) {
    return value == null ? "unset" : value;
  }
}
