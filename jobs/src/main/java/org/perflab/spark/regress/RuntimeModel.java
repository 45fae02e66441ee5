package org.perflab.spark.regress;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.feature.VectorAssembler;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * A fitted runtime regression: what {@link RuntimeRegression#predict} needs to predict a run.
 *
 * @param kind the regressor
 * @param pipeline the fitted {@link RuntimePipeline}, applying to runs joined with {@code workloadFeatures}
 * @param workloadFeatures the {@link WorkloadFeatures} of the training runs (a few rows, held by the driver)
 * @param lowRatio the 10th percentile over the training runs of actual ÷ predicted duration (see intervalSource)
 * @param highRatio their 90th percentile: [predicted × lowRatio, predicted × highRatio] is the 80 % interval
 * @param trainingRuns the runs it was fitted on
 * @param intervalSource where the ratios come from: in-sample ({@code TRAINING_RESIDUALS}) or out of fold
 *     ({@code FOLD_RESIDUALS}, {@link FoldRatios})
 */
public record RuntimeModel(RegressionKind kind, PipelineModel pipeline, Dataset<Row> workloadFeatures,
    double lowRatio, double highRatio, long trainingRuns, org.perflab.prediction.IntervalSource intervalSource) {

  /** The features the fit used, in the order assembled: those with a value on some training run. */
  public List<RuntimeFeature> features() {
    Set<String> assembled = Arrays.stream(pipeline.stages())
        .filter(VectorAssembler.class::isInstance)
        .flatMap(s -> Arrays.stream(((VectorAssembler) s).getInputCols()))
        .collect(java.util.stream.Collectors.toSet());
    return Arrays.stream(RuntimeFeature.values()).filter(f -> assembled.contains(f.assembled())).toList();
  }
}
