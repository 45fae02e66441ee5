package org.perflab.costmodel;

import java.util.List;
import java.util.Map;

/** The inputs of reference 000 §6.3 (invented test values; bytes, records, ns). */
final class WorkedExample {
  private WorkedExample() {}

  static final CostStats COSTS = new CostStats(6, 5, 10, 8, 200, 50, 30, 20, 10, 5e7, 1e7);
  static final ClusterStats STATS = new ClusterStats(COSTS, Map.of(Codec.LZ4, new CodecCosts(0.4, 3, 1)),
      Map.of(SerializerKind.JAVA, new SerializerCosts(0.5, 2)));
  static final CostConfig CONFIG = new CostConfig(4, 4, 1, 1_000_000_000L, MemoryModel.Legacy.DEFAULT,
      ShuffleManager.SORT, 200, true, true, true, Codec.LZ4, SerializerKind.JAVA);

  /** Stage 1: 128 MB splits of 100-byte records, compute ×2 records ×1.5 bytes, map-side combine 0.5, merge 0.8. */
  static final DataStats MAP_DATA = new DataStats(100, 2, 1.5, 1, 1, 1, 1, 0.5, 0.5, 0.8, 0.8, 160);
  /** Stage 2: reduce-side combine 0.25, merge 0.5, 100-byte in-memory records, compute 0.1. */
  static final DataStats REDUCE_DATA = new DataStats(1, 0.1, 0.1, 0.25, 0.5, 0.5, 100, 1, 1, 1, 1, 1);

  static StageSpec map(boolean combine) {
    return new StageSpec("map", 100, 1.28e8, List.of(), ReadSide.SORT, true, combine, false, MAP_DATA);
  }

  static StageSpec reduce(int tasks) {
    return new StageSpec("reduce", tasks, 0, List.of("map"), ReadSide.AGGREGATE, false, false, true, REDUCE_DATA);
  }

  static List<StageSpec> stages() {
    return List.of(map(true), reduce(50));
  }
}
