package org.perflab.spark.workload;

/** HiBench's workload categories; {@link #hibenchDir()} is the directory under {@code bin/workloads/}. */
public enum HiBenchCategory {
  MICRO("micro"),
  ML("ml"),
  WEBSEARCH("websearch"),
  GRAPH("graph"),
  SQL("sql");

  private final String hibenchDir;

  HiBenchCategory(String hibenchDir) {
    this.hibenchDir = hibenchDir;
  }

  public String hibenchDir() {
    return hibenchDir;
  }
}
