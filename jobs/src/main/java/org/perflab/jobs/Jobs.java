package org.perflab.jobs;

import picocli.CommandLine;

/** The jobs {@code perflab --help} lists, in pipeline order. Add a job here to make it runnable. */
final class Jobs {
  private Jobs() {}

  static void register(CommandLine commandLine) {
    // ingest
    commandLine.addSubcommand(new IngestJob());
    commandLine.addSubcommand(new MaintainJob());

    // features
    commandLine.addSubcommand(new FeaturesJob());

    // workload, corpus
    commandLine.addSubcommand(new WorkloadJob());
    commandLine.addSubcommand(new CorpusCommand());

    // cluster
    commandLine.addSubcommand(new ClusterJob());

    // scaling, regress, evaluate
    commandLine.addSubcommand(new ScalingJob());
    commandLine.addSubcommand(new RegressJob());
    commandLine.addSubcommand(new EvaluateJob());

    // stage-costs (the phase cost model's statistics)
    commandLine.addSubcommand(new StageCostsJob());

    // model, simulate, sweep
    commandLine.addSubcommand(new ModelJob());
    commandLine.addSubcommand(new SimulateJob());
    commandLine.addSubcommand(new SweepJob());

    // recommend
    commandLine.addSubcommand(new RecommendJob());

    // diagnose
    commandLine.addSubcommand(new DiagnoseJob());

    // regressions, compare (after features and diagnose)
    commandLine.addSubcommand(new RegressionsJob());
    commandLine.addSubcommand(new CompareJob());

    // memory
    commandLine.addSubcommand(new MemoryJob());
    // report
    commandLine.addSubcommand(new ReportJob());

    // operations
    commandLine.addSubcommand(new NightlyJob());
    commandLine.addSubcommand(new DoctorJob());
  }
}
