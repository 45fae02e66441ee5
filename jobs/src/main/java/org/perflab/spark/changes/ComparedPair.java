package org.perflab.spark.changes;

import java.util.List;
import org.perflab.errors.BadInputException;

/**
 * The two runs {@code compare} puts side by side: A (the first {@code --app}, or a workload's earlier run) and B (the
 * second, or its latest run). B's differences are read against A: a change is B − A, a ratio B ÷ A.
 */
public record ComparedPair(RunPoint a, RunPoint b) {
  private static final String TOKEN = "[0-9a-zA-Z_.-]+";

  /** Both runs are of one workload. */
  public boolean sameWorkload() {
    return a.workloadId().equals(b.workloadId());
  }

  /** The log ids of A and B. */
  public List<String> logIds() {
    return List.of(a.logId(), b.logId());
  }

  /** The SQL predicate that selects this pair's rows of {@code comparisons}, for their replacement. */
  public String predicate() {
    for (String id : logIds()) {
      BadInputException.require(id.matches(TOKEN), "Cannot compare: a log id is not a plain token (%s)", id);
    }
    return "log_id_a = '" + a.logId() + "' AND log_id_b = '" + b.logId() + "'";
  }

  /** "wordcount local-1 -> local-2", or "wordcount local-1 -> sort local-2" across workloads. */
  public String describe() {
    return sameWorkload() ? a.workloadId() + " " + a.appId() + " -> " + b.appId()
        : a.workloadId() + " " + a.appId() + " -> " + b.workloadId() + " " + b.appId();
  }
}
