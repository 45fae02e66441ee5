package org.perflab.jobs;

import org.perflab.spark.sweep.SweepTables;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.perflab.spark.features.FeatureTables;
import org.perflab.spark.findings.FindingsTable;
import org.perflab.spark.clustering.ClusterTables;
import org.perflab.spark.scaling.ScalingTables;
import org.perflab.table.Table;

/**
 * Every table in {@code docs/tables.md} against the schema the code writes, so that the two cannot drift: the same
 * tables, and per table the same columns in the same order, with the same types and (for the hand-written sections of
 * {@code model} and {@code sweep}) the same nullability, written {@code <type>, null}. The ingest tables' section is
 * generated from {@link Table} ({@code TableDocsTest} keeps its text in step); the others are written by hand.
 */
class DocumentedTablesTest {
  private static final Path DOC = Path.of("..", "docs", "tables.md");
  private static final Pattern NAME = Pattern.compile("`([a-z0-9_]+)`");

  /** One documented column: its name, its type as written, and whether the doc says it may be null. */
  record Documented(String name, String type, boolean nullable) {}

  /** Every table PerfLab writes, by name: the job tables here, the ingest tables from {@link Table}. */
  private static Map<String, StructType> schemas() {
    Map<String, StructType> schemas = new LinkedHashMap<>();
    schemas.put(ClusterTables.APP_CLUSTERS_TABLE, ClusterTables.APP_CLUSTERS);
    schemas.put(ClusterTables.CENTERS_TABLE, ClusterTables.CENTERS);
    schemas.put(ClusterTables.SUMMARY_TABLE, ClusterTables.SUMMARY);
    schemas.put(ClusterTables.SELECTION_TABLE, ClusterTables.SELECTION);
    schemas.put(ScalingTables.FITS_TABLE, ScalingTables.FITS);
    schemas.put(org.perflab.spark.memory.MemoryTables.RECOMMENDATIONS_TABLE, org.perflab.spark.memory.MemoryTables.RECOMMENDATIONS);
    schemas.put(org.perflab.spark.memory.MemoryTables.SKEW_TABLE, org.perflab.spark.memory.MemoryTables.SKEW);
    schemas.put(org.perflab.spark.prediction.PredictionTables.EVAL_TABLE, org.perflab.spark.prediction.PredictionTables.EVAL);
    schemas.put(org.perflab.spark.prediction.PredictionTables.SUMMARY_TABLE,
        org.perflab.spark.prediction.PredictionTables.SUMMARY);
    schemas.put(org.perflab.spark.prediction.PredictionTables.CHOICE_TABLE, org.perflab.spark.prediction.PredictionTables.CHOICE);
    schemas.put(org.perflab.spark.regress.RuntimePredictions.NAME, org.perflab.spark.regress.RuntimePredictions.SCHEMA);
    schemas.put("dag_models", ModelJob.MODELS);
    schemas.put("model_predictions", ModelJob.PREDICTIONS);
    schemas.put("sweep_results", SweepTables.RESULTS);
    schemas.put("sweep_best", SweepTables.BEST);
    schemas.put(org.perflab.spark.recommend.RecommendTables.RECOMMENDATIONS_TABLE,
        org.perflab.spark.recommend.RecommendTables.SCHEMA);
    schemas.put(FeatureTables.WORKLOADS_TABLE, FeatureTables.WORKLOADS);
    schemas.put(FeatureTables.APP_FEATURES_TABLE, FeatureTables.APP_FEATURES);
    schemas.put(FeatureTables.STAGE_FEATURES_TABLE, FeatureTables.STAGE_FEATURES);
    schemas.put(FindingsTable.NAME, FindingsTable.SCHEMA);
    schemas.put(org.perflab.spark.diagnose.StragglerTable.NAME, org.perflab.spark.diagnose.StragglerTable.SCHEMA);
    schemas.put(org.perflab.spark.diagnose.StragglerCauses.NAME, org.perflab.spark.diagnose.StragglerCauses.SCHEMA);
    schemas.put(org.perflab.spark.diagnose.GridSearch.NAME, org.perflab.spark.diagnose.GridSearch.SCHEMA);
    schemas.put(org.perflab.spark.costmodel.StageCosts.TABLE, org.perflab.spark.costmodel.StageCosts.SCHEMA);
    schemas.put(org.perflab.spark.report.WorkloadHistory.TABLE, org.perflab.spark.report.WorkloadHistory.SCHEMA);
    schemas.put(org.perflab.spark.nightly.NightlyRuns.TABLE, org.perflab.spark.nightly.NightlyRuns.SCHEMA);
    schemas.put(org.perflab.spark.changes.ChangeTables.REGRESSIONS_TABLE,
        org.perflab.spark.changes.ChangeTables.REGRESSIONS);
    schemas.put(org.perflab.spark.changes.ChangeTables.COMPARISONS_TABLE,
        org.perflab.spark.changes.ChangeTables.COMPARISONS);
    for (Table table : Table.values()) {
      schemas.put(table.tableName(), table.schema());
    }
    return schemas;
  }

  @Test
  void everyTableIsDocumentedAndNothingElse() throws IOException {
    assertThat(documented().keySet()).containsExactlyInAnyOrderElementsOf(schemas().keySet());
  }

  @Test
  void everyDocumentedColumnMatchesTheSchemaInCode() throws IOException {
    Map<String, List<Documented>> documented = documented();
    for (Map.Entry<String, StructType> table : schemas().entrySet()) {
      List<Documented> columns = documented.getOrDefault(table.getKey(), List.of());
      StructField[] fields = table.getValue().fields();
      boolean ingest = Arrays.stream(Table.values()).anyMatch(t -> t.tableName().equals(table.getKey()));

      assertThat(columns).as("columns of %s in docs/tables.md", table.getKey()).extracting(Documented::name)
          .containsExactly(Arrays.stream(fields).map(StructField::name).toArray(String[]::new));
      for (int i = 0; i < fields.length; i++) {
        assertThat(normalized(columns.get(i).type())).as("type of %s.%s", table.getKey(), fields[i].name())
            .isEqualTo(fields[i].dataType().simpleString());
        if (!ingest) {
          assertThat(columns.get(i).nullable()).as("%s.%s documented as nullable (\"<type>, null\")",
              table.getKey(), fields[i].name()).isEqualTo(fields[i].nullable());
        }
      }
    }
  }

  @Test
  void theParserReadsGroupedNamesTypesAndNulls() {
    assertThat(row("| `ci_low_s`, `ci_high_s` | double, null | s | mean \\| z |"))
        .containsExactly(new Documented("ci_low_s", "double, null", true),
            new Documented("ci_high_s", "double, null", true));
    assertThat(normalized("array<long>")).isEqualTo("array<bigint>");
  }

  /** The documented columns of each {@code ## <table>} section (a lowercase table name), in order. */
  static Map<String, List<Documented>> documented() throws IOException {
    Map<String, List<Documented>> tables = new LinkedHashMap<>();
    List<Documented> current = null;
    for (String line : Files.readAllLines(DOC, StandardCharsets.UTF_8)) {
      if (line.startsWith("## ")) {
        // A table's section is named by the table; other sections (Storage, Reading the tables) are prose.
        String name = line.substring(3).strip();
        current = name.matches("[a-z_]+") ? new ArrayList<>() : null;
        if (current != null) {
          tables.put(name, current);
        }
      } else if (current != null && line.startsWith("| `")) {
        current.addAll(row(line));
      }
    }
    return tables;
  }

  /** A table row: one or more backquoted names in the first cell, the type (and ", null") in the second. */
  static List<Documented> row(String line) {
    String[] cells = line.substring(1).split("(?<!\\\\)\\|");
    String type = cells[1].strip();
    boolean nullable = type.endsWith(", null");
    List<Documented> columns = new ArrayList<>();
    Matcher names = NAME.matcher(cells[0]);
    while (names.find()) {
      columns.add(new Documented(names.group(1), type, nullable));
    }
    return columns;
  }

  /** The documented type as Spark's simpleString: without ", null", long as bigint. */
  static String normalized(String type) {
    return type.replaceAll(",\\s*null$", "").strip().toLowerCase(Locale.ROOT).replaceAll("\\blong\\b", "bigint")
        .replaceAll("\\binteger\\b", "int");
  }
}
