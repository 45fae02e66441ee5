package org.perflab.costmodel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.perflab.errors.BadInputException;

/** Spark properties to the cost model's configuration: sizes, defaults, and bad values. */
class SparkPropertiesTest {
  private static final long MIB = 1024L * 1024;

  @Test
  void readsSizesAndDefaults() {
    assertThat(SparkProperties.memoryBytes("512m")).isEqualTo(512 * MIB);
    assertThat(SparkProperties.memoryBytes("4g")).isEqualTo(4096 * MIB);
    assertThat(SparkProperties.memoryBytes("2048")).isEqualTo(2048 * MIB);
    CostConfig c = SparkProperties.config(Map.of(), 3);
    assertThat(c.executors()).isEqualTo(3);
    assertThat(c.executorMemoryBytes()).isEqualTo(1024 * MIB);
    assertThat(c.codec()).isEqualTo(Codec.LZ4);
    assertThat(c.serializer()).isEqualTo(SerializerKind.JAVA);
    assertThat(c.spillBufferBytes()).isCloseTo((1024 - 300) * MIB * 0.6, within(1e-6));
  }

  @Test
  void readsTheKeysTheModelUses() {
    CostConfig c = SparkProperties.config(Map.of("spark.executor.memory", "8g", "spark.executor.cores", "4",
        "spark.io.compression.codec", "zstd", "spark.serializer", "org.apache.spark.serializer.KryoSerializer",
        "spark.memory.fraction", "0.5", "spark.shuffle.compress", "false"), 2);
    assertThat(c.slots()).isEqualTo(8);
    assertThat(c.codec()).isEqualTo(Codec.ZSTD);
    assertThat(c.serializer()).isEqualTo(SerializerKind.KRYO);
    assertThat(c.shuffleCompress()).isFalse();
    assertThat(c.spillBufferBytes()).isCloseTo((8192 - 300) * MIB * 0.5 / 4, within(1e-6));
  }

  @Test
  void badValuesNameTheKey() {
    assertThatThrownBy(() -> SparkProperties.config(Map.of("spark.executor.memory", "lots"), 1))
        .isInstanceOf(BadInputException.class).hasMessageStartingWith("Cannot read spark.executor.memory");
    assertThatThrownBy(() -> SparkProperties.config(Map.of("spark.shuffle.compress", "yes"), 1))
        .isInstanceOf(BadInputException.class).hasMessageStartingWith("Cannot read spark.shuffle.compress");
  }
}
