package org.perflab.eventlog.redact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.perflab.eventlog.redact.Redactor.REDACTED;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.perflab.errors.BadInputException;

class RedactorTest {
  private final Redactor redactor = Redactor.defaults();

  static Stream<Arguments> secretProperties() {
    return Stream.of(
        Arguments.of("fs.azure.account.key.myacct.blob.core.windows.net", "c2VjcmV0a2V5"),
        Arguments.of("spark.hadoop.fs.azure.account.key.acct.dfs.core.windows.net", "abc=="),
        Arguments.of("fs.s3a.secret.key", "wJalrXUtnFEMI"),
        Arguments.of("spark.hadoop.fs.s3a.access.key", "AKIAIOSFODNN7EXAMPLE"),
        Arguments.of("spark.hadoop.fs.s3.awsAccessKeyId", "AKIAIOSFODNN7EXAMPLE"),
        Arguments.of("fs.s3a.session.token", "FQoGZXIvYXdzE"),
        Arguments.of("spark.ssl.keyStorePassword", "changeit"),
        Arguments.of("spark.authenticate.secret", "s3cr3t"),
        Arguments.of("spark.hadoop.fs.gs.auth.service.account.json.keyfile.credential", "x"),
        Arguments.of("spark.jdbc.url", "jdbc:postgresql://h/db?user=u&password=p"),
        Arguments.of("spark.db.url", "jdbc:mysql://admin:hunter2@db.example.com:3306/sales"),
        Arguments.of("sun.java.command", "org.apache.spark.deploy.SparkSubmit -Dspark.password=x app.jar"),
        Arguments.of("SPARK_DB_PASSWD", "x"),
        Arguments.of("spark.eventLog.dir", "s3a://AKIA123:wJalr@bucket/logs"));
  }

  @ParameterizedTest
  @MethodSource("secretProperties")
  void redactsPropertyWhenKeyOrValueMatches(String key, String value) {
    assertThat(redactor.redact(key, value)).isEqualTo(REDACTED);
  }

  @ParameterizedTest
  @MethodSource("plainProperties")
  void keepsOrdinaryProperties(String key, String value) {
    assertThat(redactor.redact(key, value)).isEqualTo(value);
  }

  static Stream<Arguments> plainProperties() {
    return Stream.of(
        Arguments.of("spark.executor.memory", "4g"),
        Arguments.of("spark.master", "yarn"),
        Arguments.of("spark.eventLog.dir", "hdfs://nn:8020/spark-logs"),
        Arguments.of("spark.sql.shuffle.partitions", "200"),
        Arguments.of("spark.app.name", "nightly-etl"));
  }

  static Stream<Arguments> texts() {
    return Stream.of(
        Arguments.of("org.apache.spark.deploy.SparkSubmit -Dspark.password=x --class Main app.jar",
            "org.apache.spark.deploy.SparkSubmit -Dspark.password=" + REDACTED + " --class Main app.jar"),
        Arguments.of("--conf spark.hadoop.fs.s3a.secret.key=wJalr/K7MDENG --conf spark.executor.cores=4",
            "--conf spark.hadoop.fs.s3a.secret.key=" + REDACTED + " --conf spark.executor.cores=4"),
        Arguments.of("--conf fs.azure.account.key.acct.blob.core.windows.net=abc== x",
            "--conf fs.azure.account.key.acct.blob.core.windows.net=" + REDACTED + " x"),
        Arguments.of("awsAccessKeyId=AKIA1234 region=us-east-1",
            "awsAccessKeyId=" + REDACTED + " region=us-east-1"),
        Arguments.of("jdbc:postgresql://h/db?user=u&password=p",
            "jdbc:postgresql://h/db?user=u&password=" + REDACTED),
        Arguments.of("jdbc:postgresql://h/db?password=p&user=u",
            "jdbc:postgresql://h/db?password=" + REDACTED + "&user=u"),
        Arguments.of("jdbc:sqlserver://h;user=u;password=p",
            "jdbc:sqlserver://h;user=u;password=" + REDACTED),
        Arguments.of("jdbc:sqlserver://h;password=p;database=d",
            "jdbc:sqlserver://h;password=" + REDACTED + ";database=d"),
        Arguments.of("jdbc:mysql://admin:hunter2@db:3306/sales",
            "jdbc:mysql://admin:" + REDACTED + "@db:3306/sales"),
        Arguments.of("s3a://AKIA123:wJalr@bucket/path/file.parquet",
            "s3a://AKIA123:" + REDACTED + "@bucket/path/file.parquet"),
        Arguments.of("abfss://user:p@ss@container.dfs.core.windows.net/x",
            "abfss://user:" + REDACTED + "@container.dfs.core.windows.net/x"),
        Arguments.of("Relation [id#1] JDBCRelation(t) [url=jdbc:x, password=s3cr3t, user=u]",
            "Relation [id#1] JDBCRelation(t) [url=jdbc:x, password=" + REDACTED + ", user=u]"),
        Arguments.of("Map(url -> jdbc:x, password -> s3cr3t)",
            "Map(url -> jdbc:x, password -> " + REDACTED + ")"),
        Arguments.of("{\"spark.password\":\"a b\",\"n\":1}",
            "{\"spark.password\":\"" + REDACTED + "\",\"n\":1}"),
        Arguments.of("Filter (secret_code = 'abc')", "Filter (secret_code = '" + REDACTED + "')"),
        Arguments.of("java.sql.SQLException: Cannot connect (jdbc:postgresql://h:5432/db?user=u&password=p)",
            "java.sql.SQLException: Cannot connect (jdbc:postgresql://h:5432/db?user=u&password=" + REDACTED + ")"),
        Arguments.of("SET spark.hadoop.fs.s3a.secret.key=abc", "SET spark.hadoop.fs.s3a.secret.key=" + REDACTED),
        Arguments.of("{\"Event\":\"SparkListenerJobStart\",\"Properties\":{\"spark.ssl.keyPassword\":\"k\","
                + "\"spark.job.description\":\"load\"}}",
            "{\"Event\":\"SparkListenerJobStart\",\"Properties\":{\"spark.ssl.keyPassword\":\"" + REDACTED + "\","
                + "\"spark.job.description\":\"load\"}}"),
        Arguments.of("Invalid token: eyJhbGciOi for user bob",
            "Invalid token: " + REDACTED + " for user bob"),
        Arguments.of("CREATE TABLE t USING jdbc OPTIONS (url 'jdbc:x', password 'p w', access_token \"abc\")",
            "CREATE TABLE t USING jdbc OPTIONS (url 'jdbc:x', password '" + REDACTED + "', access_token \""
                + REDACTED + "\")"));
  }

  @ParameterizedTest
  @MethodSource("texts")
  void redactsSecretsInFreeText(String text, String expected) {
    assertThat(redactor.redactText(text)).isEqualTo(expected);
  }

  static Stream<String> plainTexts() {
    return Stream.of(
        "Project [password#12, token#13] +- FileScan parquet [id#1] Location: hdfs://nn:8020/warehouse/t",
        "java.sql.SQLException: password authentication failed for user x",
        "hdfs://nn:8020/user/x@corp/data",
        "abfss://container@acct.dfs.core.windows.net/dir",
        "count at Main.scala:42",
        "");
  }

  @ParameterizedTest
  @MethodSource("plainTexts")
  void leavesTextWithoutSecretsUnchanged(String text) {
    assertThat(redactor.redactText(text)).isEqualTo(text);
  }

  @Test
  void redactingTwiceChangesNothingMore() {
    String once = redactor.redactText("a password=p b jdbc:mysql://u:pw@h/db c");
    assertThat(redactor.redactText(once)).isEqualTo(once);
  }

  /**
   * Values of every length, each seen again as a new string (as each log decodes its own): short ones and long ones
   * are remembered in two caches, the longest searched each time; a secret is found in each, however often repeated.
   */
  @Test
  void repeatedValuesOfEveryLengthAreJudgedAlikeEachTime() {
    for (int length : new int[] {10, 600, 70_000}) {
      String path = "/opt/lib/x.jar:".repeat(length / 15 + 1);
      for (int seen = 0; seen < 3; seen++) {
        assertThat(redactor.redact("java.class.path", new String(path))).isEqualTo(path);
        assertThat(redactor.redact("java.class.path", path + "s3a://u:secret@h/b")).isEqualTo(REDACTED);
        assertThat(redactor.redact("java.class.path", "token" + path)).isEqualTo(REDACTED);
      }
    }
  }

  @Test
  void redactsAllValuesOfAMapInOrder() {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("spark.master", "local[2]");
    properties.put("spark.hadoop.fs.s3a.secret.key", "x");
    properties.put("spark.driver.extraJavaOptions", "-Ddb.url=jdbc:postgresql://h/db?password=p");
    assertThat(redactor.redactAll(properties))
        .containsExactly(
            Map.entry("spark.master", "local[2]"),
            Map.entry("spark.hadoop.fs.s3a.secret.key", REDACTED),
            Map.entry("spark.driver.extraJavaOptions", REDACTED));
  }

  @Test
  void nullValuesStayNull() {
    assertThat(redactor.redact("spark.password", null)).isNull();
    assertThat(redactor.redactText(null)).isNull();
  }

  @Test
  void customPatternIsUsedAndReported() {
    Redactor custom = new Redactor("(?i)internal\\.id");
    assertThat(custom.pattern()).isEqualTo("(?i)internal\\.id");
    assertThat(custom.redact("spark.internal.id", "7")).isEqualTo(REDACTED);
    assertThat(custom.redact("spark.password", "p")).isEqualTo("p");
    assertThat(custom.redactText("-Dspark.internal.id=7 x")).isEqualTo("-Dspark.internal.id=" + REDACTED + " x");
    Redactor anchored = new Redactor("^user$");
    assertThat(anchored.redactText("jdbc:x?user=bob&username=al")).isEqualTo("jdbc:x?user=" + REDACTED + "&username=al");
  }

  @Test
  void defaultPatternIsRecorded() {
    assertThat(redactor.pattern()).isEqualTo(Redactor.DEFAULT_PATTERN).startsWith("(?i)secret|password");
  }

  @Test
  void invalidPatternIsBadInput() {
    assertThatThrownBy(() -> new Redactor("(unclosed"))
        .isInstanceOf(BadInputException.class)
        .hasMessage("Cannot use the redaction pattern: it is not a valid regular expression ((unclosed)");
  }

  @Test
  void survivesJavaSerialization() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(redactor);
    }
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      Redactor copy = (Redactor) in.readObject();
      assertThat(copy.pattern()).isEqualTo(redactor.pattern());
      assertThat(copy.redact("fs.s3a.secret.key", "x")).isEqualTo(REDACTED);
    }
  }

  @Test
  void longPlanWithoutSeparatorsStaysLinear() {
    String plan = "Project [" + "a".repeat(5_000_000) + "] password=p";
    assertThat(redactor.redactText(plan)).endsWith("password=" + REDACTED);
  }
}
