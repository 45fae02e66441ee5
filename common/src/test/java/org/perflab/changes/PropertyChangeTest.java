package org.perflab.changes;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.perflab.eventlog.redact.Redactor;

class PropertyChangeTest {
  @Test
  void restoreGivesTheBaselinesValueAsAConfOrTheUnset() {
    List<PropertyChange> changes = PropertyChange.between(
        Map.of("spark.executor.instances", "4", RunProfile.SPARK_VERSION, "4.0.1"),
        Map.of("spark.executor.instances", "2", RunProfile.SPARK_VERSION, "4.1.0", "spark.sql.shuffle.partitions", "400",
            "spark.sql.files.maxRecordsPerFile", "1000"));

    assertThat(changes).extracting(PropertyChange::restore).containsExactlyInAnyOrder(
        "--conf spark.executor.instances=4", "run on Spark 4.0.1", "--conf spark.sql.shuffle.partitions=200",
        "unset spark.sql.files.maxRecordsPerFile");
    assertThat(changes).extracting(PropertyChange::describe).contains(
        "spark.sql.shuffle.partitions 200 (default) -> 400", "spark.sql.files.maxRecordsPerFile unset -> 1000");
  }

  /** The same setting spelled otherwise, or set to Spark's default, is no change: it would be a cause that is not. */
  @Test
  void valuesThatSparkReadsAlikeAreNoChange() {
    Map<String, String> before = Map.of(RunProfile.SPARK_VERSION, "3.5.1",
        "spark.executor.memory", "1g", "spark.driver.memory", "2048",
        "spark.sql.autoBroadcastJoinThreshold", "-1", "spark.io.compression.codec", "org.apache.spark.io.ZStdCompressionCodec",
        "spark.serializer", "kryo", "spark.locality.wait", "3000", "spark.network.timeout", "2min",
        "spark.sql.adaptive.enabled", "TRUE", "spark.memory.fraction", "0.60");
    Map<String, String> after = Map.of(RunProfile.SPARK_VERSION, "3.5.1",
        "spark.driver.memory", "2g", "spark.sql.shuffle.partitions", "200",
        "spark.sql.autoBroadcastJoinThreshold", "-100", "spark.io.compression.codec", "zstd",
        "spark.serializer", "org.apache.spark.serializer.KryoSerializer", "spark.locality.wait", "3s",
        "spark.network.timeout", "120", "spark.memory.fraction", "0.6");

    assertThat(PropertyChange.between(before, after)).isEmpty();
    assertThat(PropertyChange.between(Map.of("spark.custom.flag", "True"), Map.of("spark.custom.flag", "true")))
        .isEmpty();
  }

  /** Spark 1.5's static memory manager: its fractions at their defaults are no change, a raised one is. */
  @Test
  void theStaticManagersFractionsAreComparedWithTheirDefaults() {
    Map<String, String> before = Map.of(RunProfile.SPARK_VERSION, "1.5.1", "spark.shuffle.memoryFraction", "0.2",
        "spark.storage.memoryFraction", "0.6");
    Map<String, String> same = Map.of(RunProfile.SPARK_VERSION, "1.5.1");
    Map<String, String> raised = Map.of(RunProfile.SPARK_VERSION, "1.5.1", "spark.shuffle.memoryFraction", "0.67");

    assertThat(PropertyChange.between(before, same)).isEmpty();
    assertThat(PropertyChange.between(before, raised)).extracting(PropertyChange::describe)
        .containsExactly("spark.shuffle.memoryFraction 0.2 -> 0.67");
  }

  @Test
  void aDifferentSizeOrAValueSparkCannotReadIsAChange() {
    List<PropertyChange> changes = PropertyChange.between(
        Map.of("spark.executor.memory", "1024m", "spark.sql.autoBroadcastJoinThreshold", "10MB",
            "spark.locality.wait", "lots"),
        Map.of("spark.executor.memory", "2g", "spark.sql.autoBroadcastJoinThreshold", "-1",
            "spark.locality.wait", "3s"));

    assertThat(changes).extracting(PropertyChange::describe).containsExactly(
        "spark.executor.memory 1024m -> 2g", "spark.locality.wait lots -> 3s",
        "spark.sql.autoBroadcastJoinThreshold 10MB -> -1");
  }

  /**
   * Java options compare by the JVM flags that act on time: system properties (paths of one run), module options and
   * flags that only log or dump are no change; the last of two settings of a flag is the one the JVM keeps.
   */
  @Test
  void javaOptionsThatDifferOnlyInPropertiesLoggingOrOrderAreNoChange() {
    Map<String, String> before = Map.of("spark.executor.extraJavaOptions", "-Dlog4j.configuration=file:/tmp/"
        + "7dcea6dd-cb53-4edc-b373-37ce7c55f3d3/log4j.properties --add-opens=java.base/java.lang=ALL-UNNAMED"
        + " -XX:+IgnoreUnrecognizedVMOptions -XX:+UseG1GC -XX:+PrintGCDetails -Xss4M",
        "spark.driver.extraJavaOptions", "-XX:-UseG1GC -XX:+UseG1GC",
        "spark.executor.defaultJavaOptions", "\"-XX:SharedArchiveFile=/work/a/perflab.jsa\"");
    Map<String, String> after = Map.of("spark.executor.extraJavaOptions", "-Xss4m  -XX:+UseG1GC -Dfoo=bar"
        + " -XX:HeapDumpPath=/tmp/x -XX:OnOutOfMemoryError='kill -9 %p'",
        "spark.driver.extraJavaOptions", "-XX:+UseG1GC",
        "spark.executor.defaultJavaOptions", "-XX:SharedArchiveFile=/tmp/ci/perflab.jsa");

    assertThat(PropertyChange.between(before, after)).isEmpty();
    assertThat(PropertyChange.between(before, Map.of())).extracting(PropertyChange::describe).containsExactly(
        "spark.driver.extraJavaOptions -XX:+UseG1GC -> unset",
        "spark.executor.defaultJavaOptions -XX:SharedArchiveFile=<file> -> unset",
        "spark.executor.extraJavaOptions -XX:+UseG1GC -Xss4m -> unset");
  }

  @Test
  void javaOptionsThatChangeTheCollectorOrTheHeapAreAChangeOfTheirFlags() {
    List<PropertyChange> changes = PropertyChange.between(
        Map.of("spark.executor.extraJavaOptions", "-XX:+UseParallelGC -Xss4m -Dx=1"),
        Map.of("spark.executor.extraJavaOptions", "-Dx=2 -XX:+UseG1GC -XX:MaxGCPauseMillis=100 -Xss4m",
            "spark.driver.extraJavaOptions", "-XX:+UseZGC -Dy=3"));

    assertThat(changes).extracting(PropertyChange::key, PropertyChange::mechanism, PropertyChange::describe,
        PropertyChange::restore).containsExactly(
            org.assertj.core.groups.Tuple.tuple("spark.driver.extraJavaOptions", PropertyChange.Mechanism.OTHER,
                "spark.driver.extraJavaOptions unset -> -XX:+UseZGC",
                "remove the JVM flags -XX:+UseZGC from spark.driver.extraJavaOptions"),
            org.assertj.core.groups.Tuple.tuple("spark.executor.extraJavaOptions", PropertyChange.Mechanism.MEMORY,
                "spark.executor.extraJavaOptions -XX:+UseParallelGC -Xss4m -> -XX:MaxGCPauseMillis=100 -XX:+UseG1GC"
                    + " -Xss4m",
                "restore the baseline's JVM flags in spark.executor.extraJavaOptions: -XX:+UseParallelGC -Xss4m"));
  }

  @Test
  void quotedSpansStayInTheirToken() {
    assertThat(JvmFlags.tokens(" -XX:OnOutOfMemoryError='kill -9 %p'  -Da=\"b c\" -Xmx2g "))
        .containsExactly("-XX:OnOutOfMemoryError=kill -9 %p", "-Da=b c", "-Xmx2g");
  }

  /** Values Spark would refuse are compared as written: never an exception in the night's regressions step. */
  @Test
  void valuesSparkCannotReadAreComparedAsWritten() {
    Map<String, String> junk = Map.of("spark.executor.memory", "1.5g", "spark.network.timeout", "99999999999999999999s",
        "spark.sql.shuffle.partitions", "many", "spark.io.compression.codec", "brotli", "spark.serializer", "x.Y",
        "spark.memory.offHeap.size", "+5", "spark.locality.wait", "");
    assertThat(PropertyChange.between(junk, new java.util.HashMap<>(junk))).isEmpty();
    assertThat(PropertyChange.between(junk, Map.of())).extracting(PropertyChange::key).contains(
        "spark.executor.memory", "spark.network.timeout", "spark.sql.shuffle.partitions", "spark.io.compression.codec",
        "spark.serializer", "spark.memory.offHeap.size", "spark.locality.wait");
  }

  /** Both runs left it unset, but their Spark versions read unset differently: adaptive execution on from 3.2. */
  @Test
  void aDefaultThatChangedWithTheSparkVersionIsAChangeWithTheBaselinesDefaultToRestore() {
    List<PropertyChange> changes = PropertyChange.between(Map.of(RunProfile.SPARK_VERSION, "3.1.2"),
        Map.of(RunProfile.SPARK_VERSION, "3.5.0"));

    assertThat(changes).filteredOn(c -> c.key().equals("spark.sql.adaptive.enabled")).singleElement()
        .satisfies(c -> {
          assertThat(c.mechanism()).isEqualTo(PropertyChange.Mechanism.PLAN);
          assertThat(c.describe()).isEqualTo("spark.sql.adaptive.enabled false (default) -> true (default)");
          assertThat(c.restore()).isEqualTo("--conf spark.sql.adaptive.enabled=false");
        });
    assertThat(PropertyChange.between(Map.of(RunProfile.SPARK_VERSION, "1.6.3"), Map.of(RunProfile.SPARK_VERSION,
        "2.4.8"))).extracting(PropertyChange::describe).contains(
            "spark.io.compression.codec snappy (default) -> lz4 (default)",
            "spark.memory.fraction 0.75 (default) -> 0.6 (default)");
  }

  /** A secret redacted at ingest is never offered as a value to set: pasted, it would set the secret to that text. */
  @Test
  void aRedactedBaselineValueIsNamedNotGiven() {
    Redactor redactor = Redactor.defaults();
    String secret = redactor.redact("spark.authenticate.secret", "hunter2");
    assertThat(secret).isEqualTo(Redactor.REDACTED);

    List<PropertyChange> changes = PropertyChange.between(Map.of("spark.authenticate.secret", secret), Map.of());

    assertThat(changes).singleElement().satisfies(c -> {
      assertThat(c.restore()).isEqualTo("restore the baseline's value of spark.authenticate.secret"
          + " (redacted in its event log: not shown)").doesNotContain(Redactor.REDACTED);
      assertThat(c.describe()).doesNotContain("hunter2");
    });
  }

  /** A standalone master's address names one cluster; the cluster manager and local mode's threads are configuration. */
  @Test
  void theMasterIsComparedByItsClusterManagerNotItsAddress() {
    assertThat(PropertyChange.between(Map.of(SparkMaster.KEY, "spark://127.0.0.1:20385"),
        Map.of(SparkMaster.KEY, "spark://10.0.0.7:7077"))).isEmpty();
    assertThat(PropertyChange.between(Map.of(SparkMaster.KEY, "yarn-client"), Map.of(SparkMaster.KEY, "yarn")))
        .isEmpty();

    List<PropertyChange> toCluster = PropertyChange.between(Map.of(SparkMaster.KEY, "local[2]"),
        Map.of(SparkMaster.KEY, "spark://127.0.0.1:20385"));
    assertThat(toCluster).extracting(PropertyChange::describe)
        .containsExactly("spark.master local[2] -> spark://127.0.0.1:20385");
    assertThat(toCluster).extracting(PropertyChange::restore).containsExactly("--master local[2]");
    assertThat(toCluster).extracting(PropertyChange::mechanism).containsExactly(PropertyChange.Mechanism.CORES);

    assertThat(PropertyChange.between(Map.of(SparkMaster.KEY, "local[2]"), Map.of(SparkMaster.KEY, "local[4]")))
        .hasSize(1);
    assertThat(PropertyChange.between(Map.of(SparkMaster.KEY, "local"), Map.of(SparkMaster.KEY, "local[1]")))
        .isEmpty();
    assertThat(PropertyChange.between(Map.of(SparkMaster.KEY, "yarn"),
        Map.of(SparkMaster.KEY, "k8s://https://10.0.0.1:6443"))).extracting(PropertyChange::restore)
        .containsExactly("--master yarn");
  }

  /** The driver's place and the file systems' settings act on a run; the default file system only names a cluster. */
  @Test
  void theDeployModeAndFileSystemSettingsAreChangesTheDefaultFileSystemIsNot() {
    List<PropertyChange> changes = PropertyChange.between(
        Map.of("spark.submit.deployMode", "client", "spark.hadoop.fs.s3a.committer.name", "directory",
            "spark.hadoop.fs.defaultFS", "hdfs://nn1", "spark.submit.pyFiles", "a.py"),
        Map.of("spark.submit.deployMode", "cluster", "spark.hadoop.fs.s3a.committer.name", "magic",
            "spark.hadoop.fs.defaultFS", "hdfs://nn2", "spark.submit.pyFiles", "b.py"));

    assertThat(changes).extracting(PropertyChange::describe).containsExactlyInAnyOrder(
        "spark.submit.deployMode client -> cluster", "spark.hadoop.fs.s3a.committer.name directory -> magic");
  }
}
