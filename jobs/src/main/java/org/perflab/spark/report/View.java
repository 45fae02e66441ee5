package org.perflab.spark.report;

import java.util.List;

/**
 * The view model the templates of {@code src/main/jte} render: plain records of text, links, tables and charts. Every
 * string in them is text; the templates escape it for its context (jte, {@code ContentType.Html}), so a string from a
 * log can never become markup or script.
 */
public final class View {
  private View() {}

  /** A link; {@code href} is a relative path of the site built by {@link Site}. */
  public record Link(String text, String href) {}

  /**
   * One page of the site.
   *
   * @param title the heading (may hold log text, e.g. an application name)
   * @param root the relative path from the page to the site root, {@code ""} or {@code "../"}
   * @param nav links shown above the heading
   * @param sections the page's sections, in order
   */
  public record Page(String title, String root, List<Link> nav, List<Section> sections) {}

  /**
   * A section: notes (e.g. that a table is missing), charts, tables and lines of code, in that order.
   *
   * @param id the element id, unique in the page
   */
  public record Section(String id, String title, List<String> notes, List<Chart> charts, List<TableView> tables,
      List<String> code) {
    public static Section note(String id, String title, String note) {
      return new Section(id, title, List.of(note), List.of(), List.of(), List.of());
    }
  }

  /** A table cell: its text, and a link target or null. {@code numeric} right-aligns it. */
  public record Cell(String text, String href, boolean numeric) {
    public static Cell text(String text) {
      return new Cell(text == null ? "" : text, null, false);
    }

    public static Cell number(String text) {
      return new Cell(text, null, true);
    }

    public static Cell link(String text, String href) {
      return new Cell(text == null ? "" : text, href, false);
    }
  }

  /**
   * A table; {@code pages} links the other pages of a long list (empty when it fits on one).
   *
   * @param id the element id, which tests and readers address
   */
  public record TableView(String id, List<String> headers, List<List<Cell>> rows, List<Link> pages) {
    public TableView(String id, List<String> headers, List<List<Cell>> rows) {
      this(id, headers, rows, List.of());
    }
  }

  /**
   * An ECharts chart: the page's script draws {@code option} (an ECharts option object) into the element {@code id}.
   * The option travels as JSON in a {@code <script type="application/json">} block: data, not executed script.
   */
  public record Chart(String id, String title, ScriptJson option) {}
}
