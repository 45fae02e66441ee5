package org.perflab.jobs.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.QueryExecution;
import org.perflab.jobs.PerfLab;
import org.perflab.spark.environment.EffectiveProperties;
import org.perflab.spark.features.FeatureTables;
import org.perflab.spark.findings.FindingInputs;
import org.perflab.spark.findings.Findings;
import org.perflab.spark.storage.TableStore;
import org.perflab.table.Table;

/**
 * Where the driver's time goes in {@code diagnose}'s findings query: the 10 samples ingested and featured into a
 * temporary root, then the findings query built (analysis), optimised (Delta's file listing of every scan included),
 * planned and counted, [repeats] times (default 3) in one warm {@code local[2]} session, with the Spark jobs each phase
 * started. Not a test: it prints figures. Run with {@code bench/run findings-plan [repeats]}.
 */
public final class FindingsPlanTiming {
  /** Delta Lake's description of the job that lists a scan's files. */
  private static final String LISTING = "Filtering files for query";

  private FindingsPlanTiming() {}

  public static void main(String[] args) throws Exception {
    int repeats = args.length > 0 ? Integer.parseInt(args[0]) : 3;
    Path repository = Path.of("").toAbsolutePath();
    Path root = Files.createTempDirectory("perflab-findings-plan").resolve("out");
    SparkSession spark = org.perflab.spark.storage.DeltaSessions.builder("perflab-findings-plan").master("local[2]")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1").getOrCreate();
    AtomicLong jobs = new AtomicLong();
    AtomicLong listings = new AtomicLong();
    spark.sparkContext().addSparkListener(new SparkListener() {
      @Override
      public void onJobStart(SparkListenerJobStart job) {
        jobs.incrementAndGet();
        if (String.valueOf(job.properties().getProperty("spark.job.description")).contains(LISTING)) {
          listings.incrementAndGet();
        }
      }
    });
    String samples = repository.resolve("samples/spark-events").toString();
    check(PerfLab.run("ingest", "--input", samples, "--output", root.toString()), "ingest");
    check(PerfLab.run("features", "--input", root.toString()), "features");
    TableStore store = new TableStore(spark, root.toString());
    System.out.printf("%-6s %12s %12s %12s %12s   (seconds; Spark jobs started in the phase)%n", "repeat",
        "analyse", "optimise", "plan", "count");
    for (int i = 1; i <= repeats; i++) {
      spark.sparkContext().listenerBus().waitUntilEmpty();
      long before = listings.get();
      Phase analyse = Phase.time(jobs, () -> Findings.compute(new FindingInputs(
          store.read(FeatureTables.APP_FEATURES_TABLE).orElseThrow(),
          store.read(FeatureTables.STAGE_FEATURES_TABLE).orElseThrow(), store.read(Table.INGEST_STATUS).orElseThrow(),
          EffectiveProperties.read(store).orElseThrow(), store.read(Table.SQL_OPERATORS), Optional.empty(),
          store.read(Table.JOBS))));
      Dataset<Row> found = analyse.value();
      QueryExecution qe = found.queryExecution();
      Phase optimise = Phase.time(jobs, qe::optimizedPlan);
      Phase plan = Phase.time(jobs, qe::executedPlan);
      Phase count = Phase.time(jobs, found::count);
      spark.sparkContext().listenerBus().waitUntilEmpty();
      System.out.printf("%-6d %8.2f %3d %8.2f %3d %8.2f %3d %8.2f %3d   rows %d; Delta file listings %d%n", i,
          analyse.seconds(), analyse.jobs(), optimise.seconds(), optimise.jobs(), plan.seconds(), plan.jobs(),
          count.seconds(), count.jobs(), (Long) count.value(), listings.get() - before);
    }
    spark.stop();
  }

  private static void check(int code, String step) {
    if (code != 0) {
      throw new IllegalStateException(step + " exited " + code);
    }
  }

  /** A phase's result, its seconds and the Spark jobs it started. */
  private record Phase(Object valueObject, double seconds, long jobs) {
    @SuppressWarnings("unchecked")
    <T> T value() {
      return (T) valueObject;
    }

    static Phase time(AtomicLong jobs, Supplier<?> work) {
      long before = jobs.get();
      long started = System.nanoTime();
      Object value = work.get();
      return new Phase(value, (System.nanoTime() - started) / 1e9, jobs.get() - before);
    }
  }
}
