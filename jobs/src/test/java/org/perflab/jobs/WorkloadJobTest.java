package org.perflab.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.errors.BadInputException;
import org.perflab.spark.workload.Injection;
import org.perflab.spark.workload.InjectionSpec;
import org.perflab.spark.workload.WorkloadPhase;
import org.perflab.spark.workload.Scale;
import org.perflab.spark.workload.SleepDistribution;
import org.perflab.spark.workload.HiBenchWorkload;
import org.perflab.spark.workload.WorkloadTags;
import picocli.CommandLine;

/** Option resolution of the workload job: flags, then spark.perflab.* conf keys, then defaults. No Spark runs. */
class WorkloadJobTest {
  private static WorkloadJob parsed(String... args) {
    WorkloadJob job = new WorkloadJob();
    new CommandLine(job).parseArgs(args);
    return job;
  }

  @Test
  void takesTheTagsFromTheSubmittedConfWhenNoFlagGivesThem() {
    SparkConf conf = new SparkConf(false).set(WorkloadTags.WORKLOAD, "pagerank").set(WorkloadTags.SCALE, "small")
        .set(WorkloadTags.REPETITION, "3").set(WorkloadTags.GRID_POINT, "pagerank-small-local-1x2-1g-r3");
    WorkloadOptions options = parsed("--phase", "run").resolve(conf);
    assertThat(options.spec().workload()).isEqualTo(HiBenchWorkload.PAGERANK);
    assertThat(options.spec().scale()).isEqualTo(Scale.SMALL);
    assertThat(options.repetition()).isEqualTo(3);
    assertThat(options.gridPoint()).isEqualTo("pagerank-small-local-1x2-1g-r3");
    assertThat(options.phase()).isEqualTo(WorkloadPhase.RUN);
  }

  @Test
  void flagsWinOverTheConf() {
    SparkConf conf = new SparkConf(false).set(WorkloadTags.WORKLOAD, "pagerank").set(WorkloadTags.REPETITION, "3");
    WorkloadOptions options = parsed("--workload", "sleep", "--repetition", "2", "--sleep-tasks", "7",
        "--sleep-distribution", "uniform", "--sleep-mean-ms", "100").resolve(conf);
    assertThat(options.spec().workload()).isEqualTo(HiBenchWorkload.SLEEP);
    assertThat(options.repetition()).isEqualTo(2);
    assertThat(options.gridPoint()).isEqualTo("sleep-tiny");
    assertThat(options.spec().sleep().tasks()).isEqualTo(7);
    assertThat(options.spec().sleep().distribution()).isEqualTo(SleepDistribution.UNIFORM);
    assertThat(options.spec().sleep().maxMs()).as("uniform max defaults to twice the mean").isEqualTo(200);
  }

  @Test
  void badOptionsAreBadInputNamingTheValue() {
    assertThatThrownBy(() -> parsed().resolve(new SparkConf(false)))
        .isInstanceOf(BadInputException.class).hasMessageContaining("no workload given");
    assertThatThrownBy(() -> parsed("--workload", "bogus").resolve(new SparkConf(false)))
        .isInstanceOf(BadInputException.class).hasMessageContaining("unknown name (bogus; valid: sort, wordcount");
    assertThatThrownBy(() -> parsed("--workload", "sleep", "--sleep-tasks", "0").resolve(new SparkConf(false)))
        .isInstanceOf(BadInputException.class).hasMessageContaining("tasks must be at least 1 (0)");
    assertThatThrownBy(() -> parsed("--workload", "sort", "--phase", "measure").resolve(new SparkConf(false)))
        .isInstanceOf(BadInputException.class).hasMessage(
            "Cannot run workload: unknown --phase (measure; valid: prepare, run, all)");
    assertThat(PerfLab.run("workload", "--workload", "sort", "--scale", "medium")).isEqualTo(2);
  }

  @Test
  void stragglersTakeTheirInjectionFromTheFlags() {
    WorkloadOptions options = parsed("--workload", "stragglers", "--inject", "data-skew", "--inject-stages", "2",
        "--inject-tasks", "4", "--inject-factor", "3", "--partitions", "40").resolve(new SparkConf(false));
    assertThat(options.spec().workload()).isEqualTo(HiBenchWorkload.STRAGGLERS);
    assertThat(options.spec().injection()).isEqualTo(new InjectionSpec(Injection.DATA_SKEW, 2, 4, 3.0));
    assertThat(parsed("--workload", "sort").resolve(new SparkConf(false)).spec().injection().type())
        .isEqualTo(Injection.NONE);
  }

  @Test
  void badInjectionsAreBadInputNamingTheValue() {
    assertThatThrownBy(() -> parsed("--workload", "stragglers", "--inject", "network").resolve(new SparkConf(false)))
        .isInstanceOf(BadInputException.class).hasMessage(
            "Cannot parse injection: unknown type (network; valid: none, data-skew, gc, cpu, spill, sleep)");
    assertThatThrownBy(() -> parsed("--workload", "stragglers", "--inject", "gc", "--inject-tasks", "5",
            "--partitions", "8").resolve(new SparkConf(false)))
        .isInstanceOf(BadInputException.class).hasMessage(
            "Cannot plan stragglers workload: inject-tasks must be at most half the partitions (5 of 8)");
    assertThat(PerfLab.run("workload", "--workload", "stragglers", "--inject-factor", "0.5")).isEqualTo(2);
  }

  @Test
  void failTasksNeedsAMasterThatRetriesTasksExceptToPrepare(@TempDir Path dir) {
    SparkConf plainLocal = new SparkConf(false).setMaster("local[2]");
    String data = dir.resolve("data").toString();

    assertThatThrownBy(() -> WorkloadJob.preflight(parsed("--workload", "sleep", "--fail-tasks", "1", "--data-dir",
        data).resolve(plainLocal), plainLocal))
        .isInstanceOf(BadInputException.class)
        .hasMessage("Cannot run workload: --fail-tasks 1 needs task retries, and master local[2] never retries a task"
            + " (use --master 'local[2,2]' or a cluster)");
    WorkloadJob.preflight(parsed("--workload", "sleep", "--fail-tasks", "1", "--data-dir", data, "--phase",
        "prepare").resolve(plainLocal), plainLocal);
    SparkConf retrying = new SparkConf(false).setMaster("local[2,2]").set("spark.eventLog.enabled", "true")
        .set("spark.eventLog.dir", dir.resolve("events").toString());
    WorkloadJob.preflight(parsed("--workload", "sleep", "--fail-tasks", "1", "--data-dir", data).resolve(retrying),
        retrying);
    assertThat(dir.resolve("events")).as("created for the run").isDirectory();
  }
}
