package org.perflab.spark.regress;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.ml.feature.Imputer;
import org.apache.spark.ml.feature.SQLTransformer;
import org.apache.spark.ml.feature.VectorAssembler;
import org.apache.spark.ml.regression.GBTRegressor;
import org.apache.spark.ml.regression.LinearRegression;

/**
 * The MLlib {@link Pipeline} of runtime regression, with fixed hyperparameters (no search: {@code evaluate} refits it
 * once per held-out configuration, so a fit must take seconds):
 *
 * <ol>
 *   <li>an {@link SQLTransformer} computing every {@link RuntimeFeature} from a run joined with its workload's
 *       {@link WorkloadFeatures}, so that the saved model applies to such rows as they are;
 *   <li>an {@link Imputer} (median of the training rows) of the nullable features used;
 *   <li>a {@link VectorAssembler} of the features used;
 *   <li>the regressor, on the label ln(duration s):
 *       <ul>
 *         <li>{@link RegressionKind#LINEAR}: {@link LinearRegression} with ridge regularisation
 *             ({@link #LINEAR_REG_PARAM}, elastic net 0) on internally standardised features (MLlib's
 *             {@code standardization}, so no scaler stage), solved by the normal equations;
 *         <li>{@link RegressionKind#GBT}: {@link GBTRegressor}, squared loss, {@link #GBT_MAX_ITER} trees of depth
 *             {@link #GBT_MAX_DEPTH} at most, step size {@link #GBT_STEP_SIZE}, no subsampling, every feature a
 *             candidate at every split, the seed given; fitted in the driver up to
 *             {@link InMemoryGbtRegressor#IN_MEMORY_ROWS} training rows ({@link InMemoryGbtRegressor}).
 *       </ul>
 * </ol>
 */
public final class RuntimePipeline {
  /** LinearRegression's L2 regularisation, on standardised features: small, to tame collinear features. */
  public static final double LINEAR_REG_PARAM = 0.01;
  public static final int GBT_MAX_ITER = 30;
  public static final int GBT_MAX_DEPTH = 4;
  public static final double GBT_STEP_SIZE = 0.1;

  /** The label column: ln(duration s). */
  public static final String LABEL = "log_duration_s";
  /** The assembled features. */
  public static final String FEATURES = "runtime_features";
  /** The regressor's output: the predicted ln(duration s). */
  public static final String PREDICTION = "predicted_log_duration_s";

  private RuntimePipeline() {}

  /** The first stage alone: every feature column beside the input columns. */
  static SQLTransformer featureStage() {
    return new SQLTransformer().setStatement(RuntimeFeature.statement());
  }

  /**
   * The pipeline of {@code kind} over {@code used}, the features with a value on some training row.
   *
   * @param seed the GBT seed (the linear fit is deterministic)
   */
  static Pipeline of(RegressionKind kind, List<RuntimeFeature> used, long seed) {
    List<PipelineStage> stages = new ArrayList<>();
    stages.add(featureStage());
    String[] imputed = used.stream().filter(RuntimeFeature::nullable).map(RuntimeFeature::column)
        .toArray(String[]::new);
    if (imputed.length > 0) {
      String[] outputs = used.stream().filter(RuntimeFeature::nullable).map(RuntimeFeature::assembled)
          .toArray(String[]::new);
      stages.add(new Imputer().setStrategy("median").setInputCols(imputed).setOutputCols(outputs));
    }
    stages.add(new VectorAssembler().setOutputCol(FEATURES)
        .setInputCols(used.stream().map(RuntimeFeature::assembled).toArray(String[]::new)));
    stages.add(regressor(kind, seed));
    return new Pipeline().setStages(stages.toArray(new PipelineStage[0]));
  }

  /** MLlib's regressor with this pipeline's hyperparameters: fitted in memory up to a size, by MLlib beyond. */
  static GBTRegressor gbt(long seed) {
    return new GBTRegressor().setMaxIter(GBT_MAX_ITER).setMaxDepth(GBT_MAX_DEPTH).setStepSize(GBT_STEP_SIZE)
        .setSubsamplingRate(1.0).setFeatureSubsetStrategy("all").setLossType("squared").setSeed(seed)
        .setFeaturesCol(FEATURES).setLabelCol(LABEL).setPredictionCol(PREDICTION);
  }

  private static PipelineStage regressor(RegressionKind kind, long seed) {
    return switch (kind) {
      case LINEAR -> new LinearRegression().setRegParam(LINEAR_REG_PARAM).setElasticNetParam(0.0)
          .setStandardization(true).setSolver("normal")
          .setFeaturesCol(FEATURES).setLabelCol(LABEL).setPredictionCol(PREDICTION);
      case GBT -> new InMemoryGbtRegressor(gbt(seed), InMemoryGbtRegressor.IN_MEMORY_ROWS);
    };
  }
}
