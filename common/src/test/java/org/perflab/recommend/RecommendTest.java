package org.perflab.recommend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.perflab.costmodel.Codec;
import org.perflab.costmodel.SerializerKind;
import org.perflab.errors.BadInputException;
import org.perflab.prediction.Configuration;
import org.perflab.prediction.Nearest;
import org.perflab.prediction.Run;
import org.perflab.prediction.WorkloadTransfer;

/**
 * The decision logic of {@code recommend}, on candidates whose answer can be checked by hand: 1, 2, 4 and 8
 * single-core executors predicted at 100, 52, 30 and 28 s (p90: 120, 62, 36, 33 s), so 224 core-seconds at 8, 120 at
 * 4, 104 at 2 and 100 at 1.
 */
class RecommendTest {
  private static final double[] PREDICTED = {100, 52, 30, 28};
  private static final double[] HIGH = {120, 62, 36, 33};
  private static final long GIB = 1L << 30;

  private static List<Priced> candidates(Prices prices, Long memoryBytes) {
    List<Priced> out = new ArrayList<>();
    for (int i = 0; i < PREDICTED.length; i++) {
      out.add(Priced.of(new Candidate(1 << i, 1, memoryBytes, PREDICTED[i], PREDICTED[i] * 0.9, HIGH[i]),
          new Memory(null, null, "observed"), prices));
    }
    return out;
  }

  private static int chosenExecutors(Objective objective) {
    return Ranking.rank(candidates(Prices.coreHoursOnly(), null), objective).chosen().orElseThrow().candidate()
        .executors();
  }

  @Test
  void aSweptCodecThatIsPredictedCheaperIsRecommendedWithItsConfLine() {
    Recommender.Subject subject = new Recommender.Subject("wl", 1, GIB, 3, new Memory(null, null, "observed"),
        null, List.of());
    SweptPoint lz4 = new SweptPoint(1, 4, 2, null, 60, 58, 66, Codec.LZ4, null);
    SweptPoint zstd = new SweptPoint(1, 4, 2, null, 50, 49, 55, Codec.ZSTD, SerializerKind.KRYO);
    SweptPoint own = new SweptPoint(1, 2, 2, null, 120, 118, 130);

    Recommendation chosen = Recommender.recommend(subject, List.of(lz4.candidate(), zstd.candidate(),
        own.candidate()), SweptPoint.PREDICTOR, "test", Objective.cheapestNearFastest(), Prices.coreHoursOnly());
    Recommendation ownOnly = Recommender.recommend(subject, List.of(own.candidate()), SweptPoint.PREDICTOR, "test",
        Objective.cheapestNearFastest(), Prices.coreHoursOnly());

    // 4 × 2 cores for 50 s (400 core-s) beats the same at lz4 (480) and 2 × 2 for 120 s (480).
    assertThat(chosen.predictedS()).isEqualTo(50);
    assertThat(chosen.sparkSubmitArgs()).contains("--conf spark.io.compression.codec=zstd",
        "--conf spark.serializer=org.apache.spark.serializer.KryoSerializer");
    assertThat(ownOnly.sparkSubmitArgs()).doesNotContain("spark.io.compression.codec", "spark.serializer");
  }

  /**
   * The arguments are written in the keys of the workload's Spark version: before 2.3 the YARN overhead key (MiB),
   * before 3.0 dynamic allocation with the external shuffle service; the memory row's fractions with the heap.
   */
  @Test
  void theArgumentsUseTheKeysOfTheWorkloadsSparkVersion() {
    Candidate c = new Candidate(4, 2, null, 50, 45.0, 55.0);
    Memory memory = new Memory(6L * GIB, 1L << 30, "memory_recommendations, tier event_log",
        List.of("spark.shuffle.memoryFraction=0.67"));
    DynamicAllocation bounds = DynamicAllocation.around(4);

    String spark15 = SubmitArgs.of(c, memory, 64, bounds, "1.5.1");
    String spark24 = SubmitArgs.of(c, memory, 64, bounds, "2.4.8");
    String today = SubmitArgs.of(c, memory, 64, bounds, null);

    assertThat(spark15).contains("--executor-memory 6144m --conf spark.shuffle.memoryFraction=0.67",
        "--conf spark.yarn.executor.memoryOverhead=1024 ", "--conf spark.shuffle.service.enabled=true")
        .doesNotContain("spark.executor.memoryOverhead", "shuffleTracking");
    assertThat(spark24).contains("--conf spark.executor.memoryOverhead=1024m", "--conf spark.shuffle.service.enabled=true");
    assertThat(today).contains("--conf spark.executor.memoryOverhead=1024m",
        "--conf spark.dynamicAllocation.shuffleTracking.enabled=true").doesNotContain("spark.shuffle.service");
    assertThat(SubmitArgs.of(c, new Memory(null, null, "observed", List.of("spark.memory.fraction=0.7")), 64, bounds,
        null)).as("no heap, no fraction").doesNotContain("spark.memory.fraction");
  }

  @Test
  void theDefaultIsTheCheapestWithinTenPercentOfTheFastest() {
    // Fastest 28 s; 30 s is within 30.8 s, and 4 × 30 = 120 core-s < 8 × 28 = 224.
    Ranking ranking = Ranking.rank(candidates(Prices.coreHoursOnly(), null), Objective.cheapestNearFastest());
    assertThat(ranking.chosen().orElseThrow().candidate().executors()).isEqualTo(4);
    assertThat(ranking.order()).extracting(p -> p.candidate().executors()).containsExactly(4, 8, 2, 1);
    assertThat(ranking.chosen().get().coreHours()).isCloseTo(120 / 3600.0, within(1e-12));
  }

  @Test
  void aDeadlineIsMetAtP90ByTheCheapest() {
    assertThat(chosenExecutors(Objective.of(Optional.of(60.0), Optional.empty()))).isEqualTo(4);
    assertThat(chosenExecutors(Objective.of(Optional.of(70.0), Optional.empty()))).isEqualTo(2);
    Ranking none = Ranking.rank(candidates(Prices.coreHoursOnly(), null),
        Objective.of(Optional.of(20.0), Optional.empty()));
    assertThat(none.chosen()).isEmpty();
    assertThat(none.reason()).isEqualTo("Cannot meet the deadline: the fastest candidate at p90, 8 executors × 1 "
        + "cores, is predicted to take 33.0 s (a deadline >= 33.0 s)");
  }

  @Test
  void maxExecutorsBoundsTheCandidates() {
    // Among 1 and 2 executors: fastest 52 s, and 100 s is not within 10 %.
    assertThat(chosenExecutors(Objective.of(Optional.empty(), Optional.of(2)))).isEqualTo(2);
  }

  @Test
  void pricesCountCoresAndContainerMemory() {
    // 4 GiB heap + max(384 MiB, 10 %) = 4.4 GiB per executor; at 4 executors for 30 s: 4 × 4.4 × 30 / 3600 GiB·h.
    Prices prices = Prices.of(0.05, 0.01, "USD");
    Priced four = candidates(prices, 4 * GIB).get(2);
    assertThat(four.gbHours()).isCloseTo(4 * 4.4 * 30 / 3600, within(1e-9));
    assertThat(four.cost()).isCloseTo(0.05 * 120 / 3600 + 0.01 * four.gbHours(), within(1e-12));
    assertThat(prices.unit()).isEqualTo("USD");
    assertThat(Prices.of(null, null, null).unit()).isEqualTo(Prices.CORE_HOURS);
  }

  @Test
  void badPricesAndBoundsNameTheOptionAndItsRange() {
    assertThatThrownBy(() -> Prices.of(-1.0, null, "USD")).isInstanceOf(BadInputException.class)
        .hasMessage("Cannot price configurations: --price-core-hour is -1.0 (a finite price >= 0)");
    assertThatThrownBy(() -> Prices.of(null, 0.01, null))
        .hasMessage("Cannot price configurations: --currency is missing for the prices given (a currency code such "
            + "as USD or EUR)");
    assertThatThrownBy(() -> Prices.of(null, null, "EUR"))
        .hasMessage("Cannot price configurations: --currency EUR is given without --price-core-hour or "
            + "--price-gb-hour (give a price, or no currency)");
    assertThatThrownBy(() -> Objective.of(Optional.of(-5.0), Optional.empty()))
        .hasMessage("Cannot recommend a configuration: --deadline is -5.0 s (a finite number of seconds > 0)");
    assertThatThrownBy(() -> Objective.of(Optional.empty(), Optional.of(0)))
        .hasMessage("Cannot recommend a configuration: --max-executors is 0 (an integer >= 1)");
  }

  @Test
  void aClusterProfileGivesPricesAndBoundsThatOptionsOverride() {
    ClusterProfile p = ClusterProfile.parse("{\"currency\": \"USD\", \"price_core_hour\": 0.048, "
        + "\"max_executors\": 64}", "p.json");
    assertThat(p).isEqualTo(new ClusterProfile(0.048, null, "USD", 64));
    assertThat(ClusterProfile.merge(8, p.maxExecutors())).isEqualTo(8);
    assertThatThrownBy(() -> ClusterProfile.parse("{\"max_executors\": 2.5}", "p.json"))
        .hasMessage("Cannot read the cluster profile: max_executors is 2.5 (an integer >= 1; p.json)");
    assertThatThrownBy(() -> ClusterProfile.parse("{\"cores\": 2}", "p.json"))
        .hasMessageStartingWith("Cannot read the cluster profile: unknown key cores (p.json; keys ");
  }

  @Test
  void shufflePartitionsAimAt128MibInWholeWaves() {
    // 10 GiB = 80 partitions of 128 MiB; over 24 cores, 4 waves = 96.
    assertThat(ShufflePartitions.of(10 * GIB, 24)).isEqualTo(96);
    assertThat(ShufflePartitions.of(1L << 20, 8)).isEqualTo(8);
    assertThat(ShufflePartitions.of(null, 8)).isEqualTo(24);
  }

  @Test
  void theCheckFindsAnAmdahlWorkloadsRecommendationsWithinTheGoal() {
    // Amdahl, serial fraction 0.2 of 100 s per GB, at 1..16 executors of 2 cores and 1, 2 and 4 GB: 3 runs each.
    List<Run> runs = new ArrayList<>();
    for (long gb : new long[] {1, 2, 4}) {
      for (int n : new int[] {1, 2, 3, 4, 6, 8, 12, 16}) {
        double t = 100.0 * gb * (0.2 + 0.8 / (2 * n));
        for (double spread : new double[] {0.98, 1.0, 1.02}) {
          runs.add(new Run("r" + runs.size(), "w", gb * 1_000_000_000L, n, 2, 4 * GIB, t * spread));
        }
      }
    }
    RecommendCheck.Report report = RecommendCheck.check(runs);
    assertThat(report.outcomes()).hasSize(3 * RecommendCheck.FOLDS);
    assertThat(report.goalShare()).isEqualTo(1.0);
    assertThat(report.lines().get(0)).startsWith("checked 6 recommendations (0 classes and folds not checkable); "
        + "100 % meet the goal");
  }

  @Test
  void theCheckFallsBackToTheNextPredictorAsRecommendDoes() {
    // Amdahl (serial fraction 0.2 of 100 s per GB) at 1 GB on 1, 2, 4 and 8 executors, where a law can be fitted, and
    // at 4 GB on only 1, 2 and 4: with half of those hidden, no law has a series of 3 core counts there.
    List<Run> runs = new ArrayList<>();
    for (int n : new int[] {1, 2, 4, 8}) {
      runs.add(amdahlRun(runs.size(), 1, n));
    }
    for (int n : new int[] {1, 2, 4}) {
      runs.add(amdahlRun(runs.size(), 4, n));
    }
    RecommendCheck.Report report = RecommendCheck.check(runs);
    assertThat(report.unchecked()).as(String.join("\n", report.lines())).isEmpty();
    assertThat(report.outcomes()).hasSize(2 * RecommendCheck.FOLDS);
    // Fold 0 of the 4 GB class: the law chosen on the visible runs predicts none of the class, the next one does.
    List<Run> visible = runs.stream().filter(r -> r.inputBytes() == 1_000_000_000L || r.executors() == 2).toList();
    ResolvedPredictor resolved = ResolvedPredictor.resolve("w", null, null, visible).orElseThrow();
    int bigClass = runs.get(runs.size() - 1).configuration().sizeClass();
    List<Configuration> bigConfigurations = runs.stream().filter(r -> r.configuration().sizeClass() == bigClass)
        .map(Run::configuration).toList();
    ResolvedPredictor.Predicted predicted = resolved.candidates(visible, bigConfigurations, 4_000_000_000L);
    assertThat(resolved.predictor().name()).isEqualTo("amdahl");
    assertThat(predicted.predictor().name()).isNotEqualTo("amdahl");
    assertThat(predicted.candidates()).isNotEmpty();
    assertThat(predicted.evidence()).startsWith("amdahl predicts no candidate of this class, so "
        + predicted.predictor().name());
    assertThat(report.outcomes().stream().filter(o -> o.sizeClass() == bigClass && o.fold() == 0)
        .map(RecommendCheck.Outcome::predictor)).containsExactly(predicted.predictor().name());
  }

  @Test
  void aLookupRanksOnlyMeasuredConfigurationsAtTheirMeasuredRuntimes() {
    List<Run> runs = List.of(amdahlRun(0, 1, 2), amdahlRun(1, 1, 8));
    int sizeClass = runs.get(0).configuration().sizeClass();
    List<Configuration> grid = List.of(new Configuration(sizeClass, 2, 2, 4 * GIB),
        new Configuration(sizeClass, 4, 2, 4 * GIB), new Configuration(sizeClass, 8, 2, 4 * GIB));
    // Nearest would give 4 executors the runtime of 2 or 8; as a lookup it ranks only the two measured ones.
    assertThat(Recommender.predict(new Nearest(), runs, grid, 1_000_000_000L))
        .extracting(Candidate::executors, Candidate::predictedS)
        .containsExactly(tuple(2, runs.get(0).durationS()), tuple(8, runs.get(1).durationS()));
  }

  /**
   * A {@code predictor_choice} of {@code workload_transfer} reaches {@code recommend} when the other workloads' runs
   * are lent, as {@code evaluate} lends them; without them it falls back to the runtime predictors' choice and says
   * why.
   */
  @Test
  void aWorkloadTransferChoiceIsUsedWhenTheOtherWorkloadsRunsAreLent() {
    List<Run> w = List.of(amdahlRun(0, 1, 1), amdahlRun(1, 1, 2), amdahlRun(2, 1, 4));
    List<Run> all = new ArrayList<>(w);
    for (int n : new int[] {1, 2, 4, 8}) {
      all.add(new Run("a" + n, "a", 1_000_000_000L, n, 2, 4 * GIB, 50.0 / n + 10));
    }
    WorkloadTransfer lent = WorkloadTransfer.of("w", WorkloadTransfer.index(all));

    ResolvedPredictor used = ResolvedPredictor.resolve("w", WorkloadTransfer.NAME, "the reason", w, lent)
        .orElseThrow();
    assertThat(used.predictor().name()).isEqualTo(WorkloadTransfer.NAME);
    assertThat(used.evidence()).isEqualTo("predictor_choice: workload_transfer (the reason)");
    // At 8 executors, which only a measured: w at 4 carried by a's speed-up from 4 to 8 executors.
    Configuration eight = new Configuration(w.get(0).configuration().sizeClass(), 8, 2, 4 * GIB);
    List<Candidate> predicted = used.candidates(w, List.of(eight), 1_000_000_000L).candidates();
    assertThat(predicted).hasSize(1);
    assertThat(predicted.get(0).predictedS()).isCloseTo(w.get(2).durationS() * (50.0 / 8 + 10) / (50.0 / 4 + 10),
        within(1e-9));

    ResolvedPredictor without = ResolvedPredictor.resolve("w", WorkloadTransfer.NAME, "the reason", w).orElseThrow();
    assertThat(without.predictor().name()).isNotEqualTo(WorkloadTransfer.NAME);
    assertThat(without.evidence()).contains("predictor_choice chose workload_transfer, which needs what recommend "
        + "does not read");
  }

  /** A run of the Amdahl workload above at {@code gb} GB on {@code n} executors of 2 cores. */
  private static Run amdahlRun(int i, long gb, int n) {
    return new Run("r" + i, "w", gb * 1_000_000_000L, n, 2, 4 * GIB, 100.0 * gb * (0.2 + 0.8 / (2 * n)));
  }
}
