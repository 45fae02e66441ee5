package org.perflab.spark.report;

import java.util.List;
import org.perflab.errors.BadInputException;

/**
 * What {@code report} reads and writes.
 *
 * @param input the output root of the other jobs, whose tables the report shows
 * @param output the root under which the site goes ({@code <output>/report/}) and {@code workload_history} is kept
 * @param apps application ids (or log ids) that get a page besides those the overview links to
 * @param top rows of each "top" list of the overview, and applications it links to, at least 1
 */
public record ReportOptions(String input, String output, List<String> apps, int top) {
  /** The default of {@code --top}. */
  public static final int DEFAULT_TOP = 20;
  /** Rows per page of a long list (applications, workloads). */
  public static final int PAGE_ROWS = 200;

  public ReportOptions {
    BadInputException.require(top >= 1 && top <= 1000, "Cannot write the report: --top must be 1 to 1000 (%d)", top);
    apps = List.copyOf(apps);
  }
}
