package org.perflab.dagmodel;

import java.util.ArrayList;
import java.util.List;
import org.perflab.dagmodel.AppTrace.JobTrace;
import org.perflab.dagmodel.AppTrace.StageTasks;
import org.perflab.dagmodel.AppTrace.StageTrace;
import org.perflab.dagmodel.AppTrace.TaskTrace;
import org.perflab.dagmodel.TracePart.AppPart;
import org.perflab.dagmodel.TracePart.ExecutorPart;
import org.perflab.errors.BadInputException;

/** Assembles the trace of one application from its ingested parts. */
public final class TraceAssembler {
  private TraceAssembler() {}

  /**
   * The trace; bad input when the application row is missing, the log is incomplete, or no slot count is known.
   * Slots: the most executor cores alive at once, or in local mode (no executor but the driver) the driver's
   * cores, divided by {@code spark.task.cpus} (default 1).
   */
  public static AppTrace assemble(String key, Iterable<TracePart> parts) {
    AppPart app = null;
    int driverCores = 0;
    List<JobTrace> jobs = new ArrayList<>();
    List<StageTrace> stages = new ArrayList<>();
    List<TaskTrace> tasks = new ArrayList<>();
    List<StageTasks> summaries = new ArrayList<>();
    for (TracePart part : parts) {
      if (part instanceof AppPart a) {
        app = a;
      } else if (part instanceof ExecutorPart e) {
        if (e.driver() && e.totalCores() != null) {
          driverCores = e.totalCores();
        }
      } else if (part instanceof JobTrace j) {
        jobs.add(j);
      } else if (part instanceof StageTrace s) {
        stages.add(s);
      } else if (part instanceof TaskTrace t) {
        tasks.add(t);
      } else if (part instanceof StageTasks s) {
        summaries.add(s);
      }
    }
    BadInputException.require(app != null, "Cannot model %s: no applications row", key);
    BadInputException.require(app.completed(), "Cannot model %s: its log is incomplete (no ApplicationEnd)", key);
    int cores = app.maxConcurrentCores() > 0 ? app.maxConcurrentCores() : driverCores;
    int taskCpus = app.taskCpus() == null || app.taskCpus() < 1 ? 1 : app.taskCpus();
    int slots = cores / taskCpus;
    BadInputException.require(slots >= 1, "Cannot model %s: no task slots known (%d cores, %d CPUs per task)", key,
        cores, taskCpus);
    return new AppTrace(app.appId(), app.workload(), app.startMs(), app.endMs(), slots, jobs, stages, tasks,
        app.inputBytes(), summaries);
  }
}
