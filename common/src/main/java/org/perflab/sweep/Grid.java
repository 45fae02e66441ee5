package org.perflab.sweep;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.perflab.costmodel.Codec;
import org.perflab.costmodel.SerializerKind;
import org.perflab.errors.BadInputException;

/**
 * A configuration grid: every combination of executors × cores per executor (× executor memory in GB, when given)
 * (× input size in bytes, when given) (× shuffle compression codec, when given) (× serializer, when given), each
 * simulated {@code replications} times with its own seed. An empty memory list means memory is not in the grid; an
 * empty input list means every point keeps the swept run's input; empty codec and serializer lists mean every point
 * keeps the swept run's codec and serializer.
 */
public record Grid(List<Integer> executors, List<Integer> coresPerExecutor, List<Double> executorMemoryGb,
    List<Long> inputBytes, List<Codec> codecs, List<SerializerKind> serializers, int replications)
    implements Serializable {

  /** A grid without codecs or serializers. */
  public Grid(List<Integer> executors, List<Integer> coresPerExecutor, List<Double> executorMemoryGb,
      List<Long> inputBytes, int replications) {
    this(executors, coresPerExecutor, executorMemoryGb, inputBytes, List.of(), List.of(), replications);
  }

  /** A grid without input sizes. */
  public Grid(List<Integer> executors, List<Integer> coresPerExecutor, List<Double> executorMemoryGb,
      int replications) {
    this(executors, coresPerExecutor, executorMemoryGb, List.of(), replications);
  }

  public Grid {
    executors = List.copyOf(executors);
    coresPerExecutor = List.copyOf(coresPerExecutor);
    executorMemoryGb = List.copyOf(executorMemoryGb);
    inputBytes = List.copyOf(inputBytes);
    codecs = List.copyOf(codecs);
    serializers = List.copyOf(serializers);
    BadInputException.require(!executors.isEmpty(), "Cannot use grid: executors is empty (give at least one count)");
    BadInputException.require(!coresPerExecutor.isEmpty(),
        "Cannot use grid: coresPerExecutor is empty (give at least one count)");
    for (int i = 0; i < executors.size(); i++) {
      BadInputException.require(executors.get(i) >= 1, "Cannot use grid: executors[%d] must be >= 1 (%d)", i,
          executors.get(i));
    }
    for (int i = 0; i < coresPerExecutor.size(); i++) {
      BadInputException.require(coresPerExecutor.get(i) >= 1,
          "Cannot use grid: coresPerExecutor[%d] must be >= 1 (%d)", i, coresPerExecutor.get(i));
    }
    for (int i = 0; i < executorMemoryGb.size(); i++) {
      double gb = executorMemoryGb.get(i);
      BadInputException.require(gb > 0 && Double.isFinite(gb),
          "Cannot use grid: executorMemoryGb[%d] must be > 0 (%s)", i, gb);
    }
    for (int i = 0; i < inputBytes.size(); i++) {
      BadInputException.require(inputBytes.get(i) >= 1, "Cannot use grid: inputBytes[%d] must be >= 1 (%d)", i,
          inputBytes.get(i));
    }
    BadInputException.require(replications >= 1, "Cannot use grid: replications must be >= 1 (%d)", replications);
    requireDistinct(executors, "executors");
    requireDistinct(coresPerExecutor, "coresPerExecutor");
    requireDistinct(executorMemoryGb, "executorMemoryGb");
    requireDistinct(inputBytes, "inputBytes");
    requireDistinct(codecs, "codecs");
    requireDistinct(serializers, "serializers");
  }

  private static void requireDistinct(List<?> values, String field) {
    BadInputException.require(values.stream().distinct().count() == values.size(),
        "Cannot use grid: %s repeats a value (%s)", field, values);
  }

  /** Whether executor memory is a dimension of the grid (then GB·hours are reported). */
  public boolean hasMemory() {
    return !executorMemoryGb.isEmpty();
  }

  /** Whether input size is a dimension of the grid. */
  public boolean hasInputSizes() {
    return !inputBytes.isEmpty();
  }

  /** Whether the shuffle compression codec or the serializer is a dimension of the grid. */
  public boolean hasShuffleSettings() {
    return !codecs.isEmpty() || !serializers.isEmpty();
  }

  /**
   * Every point, executors outermost, then cores, then memory, then input size, then codec, then serializer, in the
   * order given.
   */
  public List<GridPoint> points() {
    List<Double> memory = hasMemory() ? executorMemoryGb : List.of(0.0);
    List<Long> sizes = hasInputSizes() ? inputBytes : List.of(0L);
    List<Codec> codecAxis = codecs.isEmpty() ? Collections.singletonList(null) : codecs;
    List<SerializerKind> serializerAxis = serializers.isEmpty() ? Collections.singletonList(null)
        : serializers;
    List<GridPoint> points = new ArrayList<>();
    for (int e : executors) {
      for (int c : coresPerExecutor) {
        for (double m : memory) {
          for (long b : sizes) {
            for (Codec codec : codecAxis) {
              for (SerializerKind serializer : serializerAxis) {
                points.add(new GridPoint(e, c, m, b, codec, serializer));
              }
            }
          }
        }
      }
    }
    return points;
  }
}
