package org.perflab.changes;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StageMatcherTest {
  private static StageRef stage(int id, int job, String name) {
    return new StageRef(id, job, name);
  }

  private static List<int[]> idPairs(StageAlignment a) {
    return a.matched().stream()
        .map(p -> new int[] {p.before().orElseThrow().stageId(), p.after().orElseThrow().stageId()}).toList();
  }

  @Test
  void namesLoseLineNumbersIdsAndCase() {
    assertThat(StageMatcher.normalise("save at  Sort.scala:42")).isEqualTo("save at sort.scala");
    assertThat(StageMatcher.normalise("WholeStageCodegen (3) $anonfun$run$1 at X.java:7"))
        .isEqualTo(StageMatcher.normalise("wholestagecodegen (12) $anonfun$run$9 at X.java:70"));
    assertThat(StageMatcher.normalise(null)).isEmpty();
  }

  @Test
  void identicalRunsMatchStageForStageEvenWithOtherIds() {
    List<StageRef> a = List.of(stage(0, 0, "textFile at A.scala:1"), stage(1, 0, "map at A.scala:2"),
        stage(2, 1, "reduceByKey at A.scala:3"), stage(3, 1, "collect at A.scala:4"));
    List<StageRef> b = List.of(stage(10, 0, "textFile at A.scala:1"), stage(11, 0, "map at A.scala:2"),
        stage(12, 1, "reduceByKey at A.scala:3"), stage(13, 1, "collect at A.scala:4"));
    StageAlignment alignment = StageMatcher.match(a, b);
    assertThat(idPairs(alignment)).containsExactly(new int[] {0, 10}, new int[] {1, 11}, new int[] {2, 12},
        new int[] {3, 13});
    assertThat(alignment.added()).isEmpty();
    assertThat(alignment.removed()).isEmpty();
  }

  @Test
  void anAddedShuffleStageIsAddedAndTheStagesAfterItStillMatch() {
    // Broadcast join disabled: the second run shuffles the big side in a stage of its own.
    List<StageRef> a = List.of(stage(0, 0, "broadcast at J.scala:5"), stage(1, 1, "scan at J.scala:9"),
        stage(2, 1, "save at J.scala:12"));
    List<StageRef> b = List.of(stage(0, 0, "broadcast at J.scala:5"), stage(1, 1, "scan at J.scala:9"),
        stage(2, 1, "exchange at J.scala:10"), stage(3, 1, "exchange at J.scala:11"),
        stage(4, 1, "save at J.scala:12"));
    StageAlignment alignment = StageMatcher.match(a, b);
    assertThat(idPairs(alignment)).containsExactly(new int[] {0, 0}, new int[] {1, 1}, new int[] {2, 4});
    assertThat(alignment.added()).extracting(StageRef::stageId).containsExactly(2, 3);
    assertThat(alignment.removed()).isEmpty();
    assertThat(alignment.pairs()).hasSize(5);
  }

  @Test
  void aRemovedStageAndAJobAddedBeforeTheRestAreHandled() {
    List<StageRef> a = List.of(stage(0, 0, "load at L.scala:1"), stage(1, 0, "sort at L.scala:2"),
        stage(2, 1, "write at L.scala:3"));
    // A new first job (a count) shifts every job ordinal and stage id; the sort is gone.
    List<StageRef> b = List.of(stage(0, 0, "count at L.scala:0"), stage(1, 1, "load at L.scala:1"),
        stage(2, 2, "write at L.scala:3"));
    StageAlignment alignment = StageMatcher.match(a, b);
    assertThat(idPairs(alignment)).containsExactly(new int[] {0, 1}, new int[] {2, 2});
    assertThat(alignment.added()).extracting(StageRef::name).containsExactly("count at L.scala:0");
    assertThat(alignment.removed()).extracting(StageRef::name).containsExactly("sort at L.scala:2");
  }

  @Test
  void repeatedNamesMatchInOrderAndIterationsAddedAtTheEndAreAdded() {
    List<StageRef> a = new ArrayList<>();
    List<StageRef> b = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      a.add(stage(i, i, "iteration at K.scala:20"));
    }
    for (int i = 0; i < 7; i++) {
      b.add(stage(i, i, "iteration at K.scala:20"));
    }
    StageAlignment alignment = StageMatcher.match(a, b);
    assertThat(idPairs(alignment)).hasSize(5).allMatch(p -> p[0] == p[1]);
    assertThat(alignment.added()).extracting(StageRef::stageId).containsExactly(5, 6);
  }

  @Test
  void largeRunsMatchByOrderOfName() {
    List<StageRef> a = new ArrayList<>();
    List<StageRef> b = new ArrayList<>();
    for (int i = 0; i < 2100; i++) {
      a.add(stage(i, i / 10, "s" + (i % 7)));
      b.add(stage(i, i / 10, "s" + (i % 7)));
    }
    b.add(stage(5000, 999, "extra"));
    StageAlignment alignment = StageMatcher.match(a, b);
    assertThat(alignment.matched()).hasSize(2100);
    assertThat(alignment.added()).extracting(StageRef::stageId).containsExactly(5000);
  }
}
