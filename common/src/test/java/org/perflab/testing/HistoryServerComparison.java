package org.perflab.testing;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Compares PerfLab's stages, executors and jobs with what Spark's History Server computes for the same log, field by
 * field, and lists every difference. PerfLab writes null for a metric the log does not record; the History Server
 * writes 0, so null and 0 compare equal. One difference is deliberate: when a later job reuses a stage's output, the
 * History Server overwrites the stage that ran with a SKIPPED copy, while PerfLab keeps the run and records the
 * skipping job in {@code skipped_in_job_ids}; such stages are compared on nothing but their existence.
 */
public final class HistoryServerComparison {
  private HistoryServerComparison() {}

  /** Every difference, as readable lines; empty when PerfLab agrees with the History Server. */
  public static List<String> differences(
      HistoryServerReplay expected,
      List<Function<String, Object>> stages,
      List<Function<String, Object>> executors,
      List<Function<String, Object>> jobs) {
    List<String> differences = new ArrayList<>();
    compare(
        "stage", expected.stages(), index(stages, r -> r.apply("stage_id") + "." + r.apply("stage_attempt_id")),
        HistoryServerComparison::isSkippedByReuse, differences);
    compare("executor", expected.executors(), index(executors, r -> (String) r.apply("executor_id")),
        (hs, ours) -> false, differences);
    Map<String, Map<String, Object>> expectedJobs = new HashMap<>();
    expected.jobs().forEach((id, values) -> expectedJobs.put(String.valueOf(id), values));
    compare("job", expectedJobs, index(jobs, r -> String.valueOf(r.apply("job_id"))), (hs, ours) -> false,
        differences);
    return differences;
  }

  private static boolean isSkippedByReuse(Map<String, Object> hs, Function<String, Object> ours) {
    Object skippedIn = ours.apply("skipped_in_job_ids");
    boolean reused = skippedIn instanceof Object[] array ? array.length > 0
        : skippedIn instanceof scala.collection.Seq<?> seq ? seq.nonEmpty()
        : skippedIn instanceof List<?> list && !list.isEmpty();
    return "SKIPPED".equals(hs.get("status")) && reused;
  }

  private static Map<String, Function<String, Object>> index(
      List<Function<String, Object>> rows, Function<Function<String, Object>, String> key) {
    Map<String, Function<String, Object>> byKey = new HashMap<>();
    rows.forEach(row -> byKey.put(key.apply(row), row));
    return byKey;
  }

  private static void compare(
      String kind,
      Map<String, Map<String, Object>> expected,
      Map<String, Function<String, Object>> actual,
      java.util.function.BiPredicate<Map<String, Object>, Function<String, Object>> exempt,
      List<String> differences) {
    for (Map.Entry<String, Map<String, Object>> entry : expected.entrySet()) {
      Function<String, Object> ours = actual.get(entry.getKey());
      if (ours == null) {
        differences.add(kind + " " + entry.getKey() + ": missing from PerfLab");
        continue;
      }
      if (exempt.test(entry.getValue(), ours)) {
        continue;
      }
      entry.getValue().forEach((field, hsValue) -> {
        Object ourValue = normalise(ours.apply(field), hsValue);
        if (!Objects.equals(normalise(hsValue, hsValue), ourValue)) {
          differences.add(kind + " " + entry.getKey() + " " + field + ": History Server " + hsValue + ", PerfLab "
              + ours.apply(field));
        }
      });
    }
    for (String key : actual.keySet()) {
      if (!expected.containsKey(key)) {
        differences.add(kind + " " + key + ": not in the History Server");
      }
    }
  }

  private static Object normalise(Object value, Object like) {
    if (value == null && like instanceof Number) {
      return 0L;
    }
    if (value instanceof Number number && !(value instanceof Double)) {
      return number.longValue();
    }
    return value;
  }
}
