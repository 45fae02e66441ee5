package org.perflab.spark.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.perflab.spark.report.View.Cell;
import org.perflab.spark.report.View.Link;
import org.perflab.spark.report.View.Page;
import org.perflab.spark.report.View.Section;
import org.perflab.spark.report.View.TableView;

/** Long lists split into pages of {@link ReportOptions#PAGE_ROWS} rows: {@code <name>-1.html}, {@code -2}, ... */
public final class Paging {
  private Paging() {}

  /** Links to every page of a list of {@code count} pages; the current one has no target; none for one page. */
  public static List<Link> links(String name, int count, int current) {
    return count <= 1 ? new ArrayList<>() : linksTo(name, count, current);
  }

  /** Links to each page of a list of {@code count} pages from a page outside it (such as the overview), even one. */
  public static List<Link> into(String name, int count) {
    return linksTo(name, count, 0);
  }

  private static List<Link> linksTo(String name, int count, int current) {
    List<Link> links = new ArrayList<>();
    for (int p = 1; p <= count; p++) {
      links.add(new Link(String.valueOf(p), p == current ? null : name + "-" + p + ".html"));
    }
    return links;
  }

  /** The pages a list of {@code rows} rows takes, at least one. */
  public static int count(int rows) {
    return Math.max(1, (rows + ReportOptions.PAGE_ROWS - 1) / ReportOptions.PAGE_ROWS);
  }

  /** Adds the pages of a list of table rows to {@code pages}, at least one (empty) page. */
  public static void pages(String name, String title, List<String> headers, List<List<Cell>> rows,
      Map<String, Page> pages) {
    int count = count(rows.size());
    for (int p = 1; p <= count; p++) {
      List<List<Cell>> slice = rows.subList((p - 1) * ReportOptions.PAGE_ROWS,
          Math.min(rows.size(), p * ReportOptions.PAGE_ROWS));
      pages.put(name + "-" + p + ".html", new Page(title + " (page " + p + " of " + count + ")", "",
          Overview.nav(""), List.of(new Section(name, title, List.of(rows.size() + " rows."), List.of(),
          List.of(new TableView(name + "-table", headers, slice, links(name, count, p))), List.of()))));
    }
  }
}
