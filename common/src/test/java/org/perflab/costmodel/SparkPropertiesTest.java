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

  /**
   * A run's version picks its manager and defaults: Spark 1.5's static shuffle region (heap × 0.2 × 0.8 ÷ tasks) and
   * snappy, 1.6's unified fraction of 0.75, legacy mode on 2.4 the static region again, an unknown version today's.
   */
  @Test
  void aRunsSparkVersionPicksItsMemoryManagerAndDefaults() {
    String version = org.perflab.eventlog.SparkVersion.PROPERTY;
    CostConfig spark15 = SparkProperties.config(Map.of(version, "1.5.1", "spark.executor.memory", "4g",
        "spark.executor.cores", "2"), 1);
    assertThat(spark15.memory()).isInstanceOf(MemoryModel.Legacy.class);
    assertThat(spark15.spillBufferBytes()).isCloseTo(4096 * MIB * 0.2 * 0.8 / 2, within(1e-6));
    assertThat(spark15.codec()).isEqualTo(Codec.SNAPPY);
    CostConfig tuned = SparkProperties.config(Map.of(version, "1.5.1", "spark.shuffle.memoryFraction", "0.4"), 1);
    assertThat(tuned.spillBufferBytes()).isCloseTo(1024 * MIB * 0.4 * 0.8, within(1e-6));
    CostConfig spark16 = SparkProperties.config(Map.of(version, "1.6.3"), 1);
    assertThat(spark16.spillBufferBytes()).isCloseTo((1024 - 300) * MIB * 0.75, within(1e-6));
    assertThat(spark16.codec()).isEqualTo(Codec.SNAPPY);
    assertThat(SparkProperties.config(Map.of(version, "2.4.8", "spark.memory.useLegacyMode", "true"), 1)
        .memory()).isInstanceOf(MemoryModel.Legacy.class);
    CostConfig spark41 = SparkProperties.config(Map.of(version, "4.1.0", "spark.memory.useLegacyMode", "true"), 1);
    assertThat(spark41.spillBufferBytes()).isCloseTo((1024 - 300) * MIB * 0.6, within(1e-6));
    assertThat(spark41.codec()).isEqualTo(Codec.LZ4);
  }

  @Test
  void badValuesNameTheKey() {
    assertThatThrownBy(() -> SparkProperties.config(Map.of("spark.executor.memory", "lots"), 1))
        .isInstanceOf(BadInputException.class).hasMessageStartingWith("Cannot read spark.executor.memory");
    assertThatThrownBy(() -> SparkProperties.config(Map.of("spark.shuffle.compress", "yes"), 1))
        .isInstanceOf(BadInputException.class).hasMessageStartingWith("Cannot read spark.shuffle.compress");
  }
}
