package org.perflab.spark.report;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.perflab.errors.BadInputException;
import org.perflab.spark.report.View.Page;

/**
 * The report of an output root: records the night in {@code workload_history}, builds every page, publishes them with
 * {@code regressions.json}.
 */
public final class Report {
  private Report() {}

  /**
   * What a report wrote.
   *
   * @param index the published index page
   * @param pages pages written
   * @param applicationPages of them, application pages
   * @param workloadPages of them, workload pages
   * @param night the night recorded
   * @param historyRows rows of the night in {@code workload_history}
   */
  public record Summary(Path index, int pages, int applicationPages, int workloadPages, WorkloadHistory.Night night,
      long historyRows) {}

  public static Summary run(SparkSession spark, ReportOptions options, Clock clock) {
    Inputs in = new Inputs(spark, options);
    spark.sparkContext().setJobDescription("Report on " + options.input());
    List<AppKey> requested = requested(in, options);
    WorkloadHistory.Night night = WorkloadHistory.night(in, clock);
    long history = WorkloadHistory.record(in, night, clock);
    Overview.Result overview = Overview.build(in, options);
    Set<AppKey> apps = new LinkedHashSet<>(overview.linkedApps());
    apps.addAll(requested);
    Map<String, Page> pages = new LinkedHashMap<>(overview.pages());
    Map<String, Page> workloads = WorkloadPages.build(in, overview.workloads());
    Map<String, Page> comparisons = ComparisonPages.build(in, overview.regressions().paged(options.top()), apps);
    Map<String, Page> applications = AppPages.build(in, apps, options.top());
    pages.putAll(workloads);
    pages.putAll(applications);
    pages.putAll(comparisons);
    Path index = new Site().publish(in.output(), pages, Map.of(NightRegressions.JSON_FILE,
        overview.regressions().json(clock.instant(), options.top())));
    return new Summary(index, pages.size(), applications.size(), workloads.size(), night, history);
  }

  /** The applications {@code --apps} names, by application id or log id. */
  private static List<AppKey> requested(Inputs in, ReportOptions options) {
    List<String> ids = options.apps();
    if (ids.isEmpty()) {
      return List.of();
    }
    List<AppKey> candidates = new ArrayList<>();
    in.read("applications").ifPresent(a -> a.select("log_id", "app_id", "app_attempt_id").collectAsList()
        .forEach((Row r) -> candidates.add(AppKey.of(r))));
    List<AppKey> found = new ArrayList<>();
    for (String id : ids) {
      List<AppKey> matches = candidates.stream().filter(k -> k.matches(id)).distinct().toList();
      BadInputException.require(!matches.isEmpty(), "Cannot write the report: no application %s under %s "
          + "(--apps takes application ids or log ids)", id, options.input());
      found.addAll(matches);
    }
    return found;
  }
}
