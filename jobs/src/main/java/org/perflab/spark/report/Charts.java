package org.perflab.spark.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * ECharts option objects for the report's kinds of chart, as maps that {@link ScriptJson} writes. Every axis is named
 * with its unit; every chart has a value tooltip and a legend when it has more than one series.
 */
public final class Charts {
  private Charts() {}

  /** A named series of (x, y) points; {@code kind} is an ECharts series type: scatter, line or bar. */
  public record Series(String name, String kind, List<?> data) {}

  /** Bars (one series or several side by side) over text categories. */
  public static Map<String, Object> bars(String xName, String yName, List<String> categories, List<Series> series) {
    Map<String, Object> option = base(series.size() > 1);
    option.put("tooltip", Map.of("trigger", "axis"));
    boolean rotate = categories.size() > 6;
    option.put("xAxis", axis("category", xName, Map.of("data", categories, "nameGap", rotate ? 95 : 35,
        "axisLabel", Map.of("interval", 0, "rotate", rotate ? 30 : 0))));
    if (rotate) {
      option.put("grid", Map.of("left", 90, "right", 40, "top", series.size() > 1 ? 50 : 30, "bottom", 120));
    }
    option.put("yAxis", axis("value", yName, Map.of()));
    option.put("series", series(series));
    return option;
  }

  /** Points and lines on two value axes (log axes when {@code logX}). */
  public static Map<String, Object> xy(String xName, String yName, List<Series> series, boolean logX) {
    Map<String, Object> option = base(series.size() > 1);
    option.put("tooltip", Map.of("trigger", "item"));
    option.put("xAxis", axis(logX ? "log" : "value", xName, Map.of("scale", true)));
    option.put("yAxis", axis("value", yName, Map.of("scale", true)));
    option.put("series", series(series));
    return option;
  }

  /** Lines over text categories (e.g. nights), one per series; null values leave gaps. */
  public static Map<String, Object> lines(String xName, String yName, List<String> categories, List<Series> series) {
    Map<String, Object> option = base(series.size() > 1);
    option.put("tooltip", Map.of("trigger", "axis"));
    option.put("xAxis", axis("category", xName, Map.of("data", categories)));
    option.put("yAxis", axis("value", yName, Map.of()));
    option.put("series", series(series));
    return option;
  }

  /**
   * A heatmap of {@code values} ({@code [xIndex, yIndex, value]}) over the categories {@code xs} × {@code ys}, with a
   * colour scale from the smallest to the largest value.
   */
  public static Map<String, Object> heatmap(String xName, String yName, List<String> xs, List<String> ys,
      List<List<Object>> values, String valueName, double min, double max) {
    Map<String, Object> option = base(false);
    option.put("tooltip", Map.of("trigger", "item"));
    option.put("grid", Map.of("left", 90, "right", 40, "top", 30, "bottom", 90));
    option.put("xAxis", axis("category", xName, Map.of("data", xs)));
    option.put("yAxis", axis("category", yName, Map.of("data", ys)));
    option.put("visualMap", Map.of("min", min, "max", max == min ? min + 1 : max, "calculable", true,
        "orient", "horizontal", "left", "center", "bottom", 0, "text", List.of(valueName, ""),
        "inRange", Map.of("color", List.of("#2c7bb6", "#ffffbf", "#d7191c"))));
    option.put("series", List.of(Map.of("type", "heatmap", "name", valueName, "data", values,
        "label", Map.of("show", xs.size() * ys.size() <= 60))));
    return option;
  }

  /**
   * A Gantt chart: one horizontal bar per row from {@code starts[i]} to {@code ends[i]} (seconds), drawn as an
   * invisible bar up to the start stacked under a visible one of the duration.
   */
  public static Map<String, Object> gantt(String xName, List<String> rows, List<Double> starts, List<Double> ends) {
    return gantt(xName, rows, starts, ends, null);
  }

  /**
   * A Gantt chart as {@link #gantt(String, List, List, List)} whose time axis ends at {@code xMax} seconds (null: at
   * the data's end), so that charts of two runs share one scale; a row whose start or end is null has no bar.
   */
  public static Map<String, Object> gantt(String xName, List<String> rows, List<Double> starts, List<Double> ends,
      Double xMax) {
    Map<String, Object> option = base(false);
    List<Double> durations = new ArrayList<>();
    List<Double> offsets = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      boolean bar = starts.get(i) != null && ends.get(i) != null;
      durations.add(bar ? round(ends.get(i) - starts.get(i)) : null);
      offsets.add(bar ? round(starts.get(i)) : null);
    }
    option.put("tooltip", Map.of("trigger", "axis", "axisPointer", Map.of("type", "shadow")));
    option.put("grid", Map.of("left", 110, "right", 40, "top", 30, "bottom", 50));
    option.put("xAxis", axis("value", xName, xMax == null ? Map.of() : Map.of("max", round(xMax))));
    option.put("yAxis", axis("category", "stage", Map.of("data", rows, "inverse", true)));
    Map<String, Object> offset = new LinkedHashMap<>();
    offset.put("name", "start (s)");
    offset.put("type", "bar");
    offset.put("stack", "span");
    offset.put("itemStyle", Map.of("color", "transparent"));
    offset.put("data", offsets);
    Map<String, Object> span = new LinkedHashMap<>();
    span.put("name", "duration (s)");
    span.put("type", "bar");
    span.put("stack", "span");
    span.put("itemStyle", Map.of("color", "#3b73b9"));
    span.put("data", durations);
    option.put("series", List.of(offset, span));
    return option;
  }

  /** {@code value} rounded to 4 significant decimals, to keep chart data small. */
  public static double round(double value) {
    return Double.isFinite(value) ? Math.round(value * 10_000.0) / 10_000.0 : 0.0;
  }

  private static Map<String, Object> base(boolean legend) {
    Map<String, Object> option = new LinkedHashMap<>();
    option.put("animation", false);
    option.put("textStyle", Map.of("fontSize", 13));
    option.put("grid", Map.of("left", 90, "right", 40, "top", legend ? 50 : 30, "bottom", 70));
    if (legend) {
      option.put("legend", Map.of("type", "scroll", "top", 0));
    }
    return option;
  }

  private static Map<String, Object> axis(String type, String name, Map<String, Object> extra) {
    Map<String, Object> axis = new LinkedHashMap<>();
    axis.put("type", type);
    axis.put("name", name);
    axis.put("nameLocation", "middle");
    // Room for the tick labels: value labels left of a vertical axis, stage names left of the Gantt's.
    axis.put("nameGap", name.equals("stage") ? 90 : type.equals("category") ? 35 : 55);
    axis.putAll(extra);
    return axis;
  }

  private static List<Map<String, Object>> series(List<Series> series) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Series s : series) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", s.name());
      m.put("type", s.kind());
      m.put("data", s.data());
      if (s.kind().equals("line")) {
        m.put("showSymbol", s.data().size() <= 40);
        m.put("connectNulls", false);
      }
      if (s.kind().equals("scatter")) {
        m.put("symbolSize", 9);
      }
      out.add(m);
    }
    return out;
  }
}
