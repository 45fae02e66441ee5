package org.perflab.jobs;

import java.nio.file.Path;
import org.perflab.spark.corpus.CorpusGrid;
import org.perflab.spark.corpus.CorpusSettings;

/**
 * Options of the {@code corpus} command, resolved and validated.
 *
 * @param gridFile the grid definition
 * @param grid the parsed grid
 * @param settings where and how it runs
 */
public record CorpusOptions(Path gridFile, CorpusGrid grid, CorpusSettings settings) {}
