package org.perflab.jobs;

import picocli.CommandLine;

/** The list of jobs {@code perflab --help} shows, in pipeline order. Add a job here to make it runnable. */
final class Jobs {
  private Jobs() {}

  static void register(CommandLine commandLine) {
    // one line per job, e.g. commandLine.addSubcommand(new IngestJob());
  }
}
