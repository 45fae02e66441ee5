package org.perflab.spark.workload;

/** One size per {@link Scale} profile, in the unit the owning workload documents (bytes, rows, pages, edges...). */
public record ScaleTable(long tiny, long small, long large, long huge, long gigantic, long bigdata) {

  public static ScaleTable of(long tiny, long small, long large, long huge, long gigantic, long bigdata) {
    return new ScaleTable(tiny, small, large, huge, gigantic, bigdata);
  }

  public long at(Scale scale) {
    return switch (scale) {
      case TINY -> tiny;
      case SMALL -> small;
      case LARGE -> large;
      case HUGE -> huge;
      case GIGANTIC -> gigantic;
      case BIGDATA -> bigdata;
    };
  }
}
