package org.perflab.changes;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.perflab.eventlog.redact.Redactor;

class PropertyChangeTest {
  @Test
  void restoreGivesTheBaselinesValueAsAConfOrTheUnset() {
    List<PropertyChange> changes = PropertyChange.between(
        Map.of("spark.executor.instances", "4", RunProfile.SPARK_VERSION, "4.0.1"),
        Map.of("spark.executor.instances", "2", RunProfile.SPARK_VERSION, "4.1.0", "spark.sql.shuffle.partitions", "400"));

    assertThat(changes).extracting(PropertyChange::restore).containsExactlyInAnyOrder(
        "--conf spark.executor.instances=4", "run on Spark 4.0.1", "unset spark.sql.shuffle.partitions");
  }

  /** A secret redacted at ingest is never offered as a value to set: pasted, it would set the secret to that text. */
  @Test
  void aRedactedBaselineValueIsNamedNotGiven() {
    Redactor redactor = Redactor.defaults();
    String secret = redactor.redact("spark.authenticate.secret", "hunter2");
    assertThat(secret).isEqualTo(Redactor.REDACTED);

    List<PropertyChange> changes = PropertyChange.between(Map.of("spark.authenticate.secret", secret), Map.of());

    assertThat(changes).singleElement().satisfies(c -> {
      assertThat(c.restore()).isEqualTo("restore the baseline's value of spark.authenticate.secret"
          + " (redacted in its event log: not shown)").doesNotContain(Redactor.REDACTED);
      assertThat(c.describe()).doesNotContain("hunter2");
    });
  }
}
