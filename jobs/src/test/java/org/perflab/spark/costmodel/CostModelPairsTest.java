package org.perflab.spark.costmodel;

import org.perflab.costmodel.PairPrediction;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.perflab.errors.BadInputException;

/** The pairs file of {@code stage-costs --pairs} (no Spark). */
class CostModelPairsTest {
  @Test
  void readsOnePairALineAfterTheHeader() {
    List<CostModelPairs.Pair> pairs = CostModelPairs.parse("# made by bench/costmodel-pairs\n"
        + CostModelPairs.HEADER + "\nmemory,local-1,local-2\n\nCODEC, local-3 ,local-4\n", "p.csv");
    assertThat(pairs).containsExactly(
        new CostModelPairs.Pair(PairPrediction.Setting.MEMORY, "local-1", "local-2"),
        new CostModelPairs.Pair(PairPrediction.Setting.CODEC, "local-3", "local-4"));
  }

  @Test
  void malformedFilesAreBadInput() {
    assertThatThrownBy(() -> CostModelPairs.parse(CostModelPairs.HEADER + "\nmemory,,local-2\n", "p.csv"))
        .isInstanceOf(BadInputException.class)
        .hasMessage("Cannot read p.csv: a pair without both applications (memory,,local-2)");
    assertThatThrownBy(() -> CostModelPairs.parse(CostModelPairs.HEADER + "\n", "p.csv"))
        .isInstanceOf(BadInputException.class).hasMessageStartingWith("Cannot read p.csv: no pairs");
    assertThatThrownBy(() -> CostModelPairs.parse(CostModelPairs.HEADER + "\ncores,a,b\n", "p.csv"))
        .isInstanceOf(BadInputException.class).hasMessageContaining("unknown (cores;");
    assertThatThrownBy(() -> CostModelPairs.parse("app_a,app_b\n", "p.csv"))
        .isInstanceOf(BadInputException.class).hasMessageContaining("line 1 is not the header");
  }
}
