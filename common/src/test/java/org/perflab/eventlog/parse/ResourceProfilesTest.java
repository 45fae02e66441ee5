package org.perflab.eventlog.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.table.Table;
import org.perflab.table.TableRow;

/**
 * The environment page's "Resource Profiles" kept as the {@code RESOURCE_PROFILES} property set: every field of every
 * profile's executor and task resource requests, under the History Server's REST API names, redacted like the rest.
 */
class ResourceProfilesTest {
  private static final String DEFAULT_PROFILE = "{\"Event\":\"SparkListenerResourceProfileAdded\","
      + "\"Resource Profile Id\":0,\"Executor Resource Requests\":{"
      + "\"cores\":{\"Resource Name\":\"cores\",\"Amount\":1,\"Discovery Script\":\"\",\"Vendor\":\"\"},"
      + "\"memory\":{\"Resource Name\":\"memory\",\"Amount\":1024,\"Discovery Script\":\"\",\"Vendor\":\"\"}},"
      + "\"Task Resource Requests\":{\"cpus\":{\"Resource Name\":\"cpus\",\"Amount\":1.0}}}";
  /** A stage-level profile, as SPARK-27495 logs one: a GPU with its discovery script, a fractional task share. */
  private static final String GPU_PROFILE = "{\"Event\":\"SparkListenerResourceProfileAdded\","
      + "\"Resource Profile Id\":3,\"Executor Resource Requests\":{"
      + "\"cores\":{\"Resource Name\":\"cores\",\"Amount\":4,\"Discovery Script\":\"\",\"Vendor\":\"\"},"
      + "\"gpu\":{\"Resource Name\":\"gpu\",\"Amount\":2,\"Discovery Script\":\"/opt/getGpus.sh --token=s3cr3t\","
      + "\"Vendor\":\"nvidia.com\"}},"
      + "\"Task Resource Requests\":{\"cpus\":{\"Resource Name\":\"cpus\",\"Amount\":1.0},"
      + "\"gpu\":{\"Resource Name\":\"gpu\",\"Amount\":0.5}}}";

  @Test
  void everyFieldOfEveryProfileIsOnePropertyUnderItsRestApiName() {
    ParsedLog parsed = parse(DEFAULT_PROFILE, GPU_PROFILE);

    assertThat(parsed.status().get("status")).isEqualTo("OK");
    assertThat(profiles(parsed)).isEqualTo(new TreeMap<>(Map.ofEntries(
        Map.entry("0.executor.cores.amount", "1"),
        Map.entry("0.executor.cores.discoveryScript", ""),
        Map.entry("0.executor.cores.vendor", ""),
        Map.entry("0.executor.memory.amount", "1024"),
        Map.entry("0.executor.memory.discoveryScript", ""),
        Map.entry("0.executor.memory.vendor", ""),
        Map.entry("0.task.cpus.amount", "1.0"),
        Map.entry("3.executor.cores.amount", "4"),
        Map.entry("3.executor.cores.discoveryScript", ""),
        Map.entry("3.executor.cores.vendor", ""),
        Map.entry("3.executor.gpu.amount", "2"),
        Map.entry("3.executor.gpu.discoveryScript", Redactor.REDACTED),
        Map.entry("3.executor.gpu.vendor", "nvidia.com"),
        Map.entry("3.task.cpus.amount", "1.0"),
        Map.entry("3.task.gpu.amount", "0.5"))));
    assertThat(parsed.rows(Table.PROPERTY_SET_REFS)).extracting(row -> row.get("category"))
        .contains("RESOURCE_PROFILES");
  }

  @Test
  void theSameProfilesInTwoLogsAreOneSetAndALogBeforeSpark31HasNone() {
    String setA = setId(parse(DEFAULT_PROFILE));
    String setB = setId(parse(DEFAULT_PROFILE));
    ParsedLog withoutProfiles = parse();

    assertThat(setA).isEqualTo(setB).isNotEqualTo(setId(parse(DEFAULT_PROFILE, GPU_PROFILE)));
    assertThat(withoutProfiles.status().get("status")).isEqualTo("OK");
    assertThat(profiles(withoutProfiles)).isEmpty();
  }

  @Test
  void aProfileWithoutItsIdIsABadLineAndTheRestOfTheLogIsKept() {
    ParsedLog parsed = parse(DEFAULT_PROFILE.replace("\"Resource Profile Id\":0,", ""));

    assertThat(profiles(parsed)).isEmpty();
    assertThat(parsed.application().get("app_name")).isEqualTo("profiles");
    assertThat(String.valueOf(parsed.status().get("bad_lines"))).isEqualTo("1");
  }

  private static ParsedLog parse(String... profiles) {
    List<String> lines = new ArrayList<>();
    lines.add("{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"4.1.0\"}");
    lines.addAll(List.of(profiles));
    lines.add("{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"profiles\",\"App ID\":\"local-1\","
        + "\"Timestamp\":1000,\"User\":\"u\"}");
    lines.add("{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":2000}");
    LogIdentity identity = new LogIdentity("0000000000000001", "file:/x", "SINGLE_FILE", "NONE", 0, 0, false,
        "local-1", null);
    return ParsedLog.parse(identity, lines, true);
  }

  private static Map<String, String> profiles(ParsedLog parsed) {
    Map<String, String> values = new TreeMap<>();
    for (TableRow row : parsed.rows(Table.PROPERTY_SETS)) {
      if ("RESOURCE_PROFILES".equals(row.get("category"))) {
        values.put((String) row.get("key"), (String) row.get("value"));
      }
    }
    return values;
  }

  private static String setId(ParsedLog parsed) {
    return parsed.rows(Table.PROPERTY_SET_REFS).stream().filter(row -> "RESOURCE_PROFILES".equals(row.get("category")))
        .map(row -> (String) row.get("set_id")).findFirst().orElseThrow();
  }
}
