package org.perflab.spark.corpus;

import java.nio.file.Path;
import java.util.List;

/**
 * Where and how a corpus runs, resolved from the command's options.
 *
 * @param submit the launcher command ({@code PERFLAB_SUBMIT}, else {@code <PERFLAB_HOME>/submit/perflab})
 * @param localClusterScript {@code submit/local-cluster}, for grids with {@code local-cluster} sweeps
 * @param workDir local directory for run logs and the local cluster's state
 * @param eventLogDir qualified URI of the event-log directory
 * @param dataDir qualified URI of the prepared data sets
 * @param manifest qualified URI of the manifest CSV
 * @param timeoutSeconds limit of every spark-submit, over the grid's own limits; 0 keeps the grid's
 * @param resume skip points the manifest already records as OK
 * @param dryRun print the commands, run nothing
 */
public record CorpusSettings(
    List<String> submit,
    Path localClusterScript,
    Path workDir,
    String eventLogDir,
    String dataDir,
    String manifest,
    int timeoutSeconds,
    boolean resume,
    boolean dryRun) {}
