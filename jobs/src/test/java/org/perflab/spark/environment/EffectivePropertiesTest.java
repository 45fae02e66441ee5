package org.perflab.spark.environment;

import static org.apache.spark.sql.functions.col;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.spark.ingest.Ingest;
import org.perflab.spark.ingest.IngestOptions;
import org.perflab.spark.ingest.IngestSummary;
import org.perflab.spark.ingest.SparkTestSession;
import org.perflab.spark.storage.TableStore;
import org.perflab.table.Table;

/**
 * The environment stored as content-addressed sets and read back whole: three bundled samples (two share their
 * Hadoop, JVM and metrics properties with every sample) ingested into a fresh root, and the same effective
 * properties written by hand in the layout of a root from before property sets.
 */
class EffectivePropertiesTest {
  private static final Path SAMPLES = Path.of("..", "samples", "spark-events");
  /** A plain-text sample, so that the test reads its EnvironmentUpdate itself. */
  private static final String PLAIN = "local-1795305472854";
  private static final Map<String, String> SECTIONS = Map.of("Spark Properties", "SPARK", "Hadoop Properties",
      "HADOOP", "System Properties", "SYSTEM", "JVM Information", "JVM", "Metrics Properties", "METRICS",
      "Classpath Entries", "CLASSPATH");

  @TempDir static Path temp;
  private static SparkSession spark;
  private static TableStore store;
  private static IngestSummary second;
  private static long setRowsAfterFirst;

  @BeforeAll
  static void ingestThreeSamplesInTwoRuns() throws IOException {
    spark = SparkTestSession.get();
    Path archive = Files.createDirectories(temp.resolve("archive"));
    Files.copy(SAMPLES.resolve(PLAIN), archive.resolve(PLAIN));
    Files.copy(SAMPLES.resolve("local-1795305534867.zstd"), archive.resolve("local-1795305534867.zstd"));
    String output = temp.resolve("out").toString();
    store = new TableStore(spark, output);
    ingest(archive, output, false);
    setRowsAfterFirst = store.read(Table.PROPERTY_SETS).orElseThrow().count();
    Files.copy(SAMPLES.resolve("local-1795305498092.zstd"), archive.resolve("local-1795305498092.zstd"));
    second = ingest(archive, output, true);
  }

  private static IngestSummary ingest(Path archive, String output, boolean incremental) throws IOException {
    return new Ingest(spark, new IngestOptions(List.of(archive.toString()), output, incremental,
        Redactor.DEFAULT_PATTERN, 0), Clock.systemUTC()).run();
  }

  @Test
  void sharedCategoriesAreStoredOncePerDistinctSet() {
    Dataset<Row> refs = store.read(Table.PROPERTY_SET_REFS).orElseThrow();
    Dataset<Row> sets = store.read(Table.PROPERTY_SETS).orElseThrow();

    assertThat(store.read(Table.PROPERTIES).orElseThrow().select("category").distinct().collectAsList())
        .extracting(row -> row.getString(0)).containsExactly("SPARK");
    assertThat(refs.where(col("category").equalTo("HADOOP")).count()).isEqualTo(3);
    assertThat(refs.where(col("category").equalTo("HADOOP")).select("set_id").distinct().count()).isEqualTo(1);
    long hadoopRows = refs.where(col("category").equalTo("HADOOP")).first().<Long>getAs("num_rows");
    assertThat(hadoopRows).isGreaterThan(1000);
    assertThat(sets.where(col("category").equalTo("HADOOP")).count()).isEqualTo(hadoopRows);
    // Every set once, with as many rows as its references say.
    assertThat(sets.groupBy("set_id", "key").count().where(col("count").gt(1)).count()).isZero();
    long referenced = refs.dropDuplicates("set_id").agg(org.apache.spark.sql.functions.sum("num_rows"))
        .first().getLong(0);
    assertThat(sets.count()).isEqualTo(referenced);
    // The second run met the Hadoop set again and wrote only the new log's own sets (its system properties; its class
    // path where it differs): those no log of the first run refers to.
    String newLog = "local-1795305498092";
    Dataset<Row> earlierSets = refs.where(col("app_id").notEqual(newLog)).select("set_id").distinct();
    Dataset<Row> ownSets = refs.where(col("app_id").equalTo(newLog)).join(earlierSets,
        new String[] {"set_id"}, "left_anti");
    assertThat(ownSets.select("category").collectAsList()).extracting(row -> row.getString(0)).contains("SYSTEM")
        .doesNotContain("HADOOP");
    long newRows = ownSets.agg(org.apache.spark.sql.functions.sum("num_rows")).first().getLong(0);
    assertThat(sets.count() - setRowsAfterFirst).isEqualTo(newRows);
    assertThat(second.rowsByTable()).containsEntry(Table.PROPERTY_SETS.tableName(), newRows);
  }

  @Test
  void everyCategoryOfTheLogIsReadBackWithItsKeysAndValues() throws IOException {
    Map<String, Map<String, String>> logged = environment(SAMPLES.resolve(PLAIN));
    Map<String, Map<String, String>> read = new TreeMap<>();
    for (Row row : EffectiveProperties.read(store).orElseThrow().where(col("app_id").equalTo(PLAIN))
        .collectAsList()) {
      read.computeIfAbsent(row.getAs("category"), k -> new TreeMap<>()).put(row.getAs("key"), row.getAs("value"));
    }

    assertThat(logged).containsKeys("CLASSPATH", "RESOURCE_PROFILES");
    assertThat(read.keySet()).isEqualTo(logged.keySet());
    for (String category : logged.keySet()) {
      assertThat(read.get(category).keySet()).as(category).isEqualTo(logged.get(category).keySet());
      logged.get(category).forEach((key, value) -> assertThat(read.get(category).get(key)).as(category + " " + key)
          .isIn(value, Redactor.REDACTED));
    }
    assertThat(EffectiveProperties.sparkByLog(EffectiveProperties.read(store).orElseThrow(),
        List.of(logId(PLAIN)), "spark.app.id")).isEqualTo(Map.of(logId(PLAIN), Map.of("spark.app.id", PLAIN)));
  }

  @Test
  void aRootWrittenBeforePropertySetsReadsTheSameEffectiveProperties() {
    List<Row> expected = sorted(EffectiveProperties.read(store).orElseThrow());
    String old = temp.resolve("old-layout").toString();
    spark.createDataFrame(expected, Table.PROPERTIES.schema()).write().format("delta")
        .save(old + "/" + Table.PROPERTIES.tableName());

    assertThat(sorted(EffectiveProperties.read(new TableStore(spark, old)).orElseThrow())).isEqualTo(expected);
    // A root ingested in both eras: a log's old rows of a category it now has a reference for are not read twice.
    Dataset<Row> refsOfOneLog = store.read(Table.PROPERTY_SET_REFS).orElseThrow()
        .where(col("app_id").equalTo(PLAIN));
    Dataset<Row> mixed = EffectiveProperties.of(spark.createDataFrame(expected, Table.PROPERTIES.schema()),
        Optional.of(refsOfOneLog), store.read(Table.PROPERTY_SETS));
    assertThat(sorted(mixed)).isEqualTo(expected);
  }

  @Test
  void theDocumentedQueryOfOneApplicationsEnvironmentReadsTheSameRows() throws IOException {
    String doc = Files.readString(Path.of("..", "docs", "tables.md"));
    String section = doc.substring(doc.indexOf("## One application's environment"));
    String block = section.substring(section.indexOf("```sql") + "```sql".length());
    String query = block.substring(0, block.indexOf(';')).replace("/perflab/tables", store.root().toString())
        .replace("app-20261122011932-0001", PLAIN);

    assertThat(sorted(spark.sql(query).select("log_id", "category", "key", "value")))
        .isEqualTo(sorted(EffectiveProperties.read(store).orElseThrow().where(col("app_id").equalTo(PLAIN))
            .select("log_id", "category", "key", "value")));
  }

  private static String logId(String appId) {
    return store.read(Table.APPLICATIONS).orElseThrow().where(col("app_id").equalTo(appId)).first().getAs("log_id");
  }

  private static List<Row> sorted(Dataset<Row> rows) {
    return rows.orderBy("log_id", "category", "key").collectAsList();
  }

  /**
   * The log's EnvironmentUpdate sections by PerfLab category, and its resource profiles as {@code RESOURCE_PROFILES}
   * under the History Server's REST API names, read here with Jackson, independently of ingest.
   */
  private static Map<String, Map<String, String>> environment(Path log) throws IOException {
    ObjectMapper json = new ObjectMapper();
    Map<String, Map<String, String>> sections = new TreeMap<>();
    Map<String, String> profiles = new TreeMap<>();
    boolean found = false;
    for (String line : Files.readAllLines(log)) {
      if (line.contains("SparkListenerResourceProfileAdded")) {
        JsonNode event = json.readTree(line);
        String id = event.get("Resource Profile Id").asText();
        event.get("Executor Resource Requests").fields().forEachRemaining(request -> {
          String prefix = id + ".executor." + request.getKey() + ".";
          profiles.put(prefix + "amount", request.getValue().get("Amount").asText());
          profiles.put(prefix + "discoveryScript", request.getValue().get("Discovery Script").asText());
          profiles.put(prefix + "vendor", request.getValue().get("Vendor").asText());
        });
        event.get("Task Resource Requests").fields().forEachRemaining(request ->
            profiles.put(id + ".task." + request.getKey() + ".amount", request.getValue().get("Amount").asText()));
      }
      if (!line.contains("SparkListenerEnvironmentUpdate")) {
        continue;
      }
      found = true;
      JsonNode event = json.readTree(line);
      SECTIONS.forEach((section, category) -> {
        Map<String, String> values = new TreeMap<>();
        Iterator<Map.Entry<String, JsonNode>> fields = event.path(section).fields();
        fields.forEachRemaining(field -> values.put(field.getKey(), field.getValue().asText()));
        if (!values.isEmpty()) {
          sections.put(category, values);
        }
      });
    }
    if (!found) {
      throw new IllegalStateException("Cannot find the EnvironmentUpdate of " + log);
    }
    if (!profiles.isEmpty()) {
      sections.put("RESOURCE_PROFILES", profiles);
    }
    return sections;
  }
}
