package org.perflab.errors;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ActionsTest {
  @Test
  void aJobNamedByAVerbIsItsOwnActionTheOthersAreRunAndAPhraseIsKept() {
    assertThat(Actions.of("ingest")).isEqualTo("ingest");
    assertThat(Actions.of("evaluate")).isEqualTo("evaluate");
    // "Cannot regressions: ..." and "Cannot stage-costs: ..." were what the preflight of those jobs printed
    assertThat(Actions.of("regressions")).isEqualTo("run regressions");
    assertThat(Actions.of("stage-costs")).isEqualTo("run stage-costs");
    assertThat(Actions.of("features")).isEqualTo("run features");
    assertThat(Actions.of("fit scaling laws")).isEqualTo("fit scaling laws");
    assertThat(Actions.of(Actions.of("memory"))).as("idempotent").isEqualTo("run memory");
  }
}
