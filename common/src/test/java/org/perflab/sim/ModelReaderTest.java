package org.perflab.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.perflab.errors.BadInputException;

class ModelReaderTest {
  private static final String STAGE =
      "{\"name\":\"S0\",\"tasks\":4,\"pre\":[],\"post\":[],\"distr\":{\"type\":\"exp\",\"params\":{\"rate\":0.5}}}";

  private static Model parse(String json) {
    return ModelReader.parse(json, "m.json");
  }

  @Test
  void readsTheFig2ModelWithDagSimNames() throws IOException {
    Model m = EngineTest.fig2();
    assertThat(m.stages()).hasSize(5);
    assertThat(m.nodes()).isEqualTo(64);
    assertThat(m.maxJobs()).isEqualTo(20_000);
    assertThat(m.stages().get(3).pre()).containsExactly("S0", "S2");
    assertThat(m.stages().get(0).distribution()).isEqualTo(new Distribution.Exponential(0.005));
    assertThat(m.thinkTime().mean()).isEqualTo(1000.0);
    assertThat(m.taskChoice()).isEqualTo(TaskChoice.FIFO);
    assertThat(m.tasksPerApplication()).isEqualTo(510);
  }

  @Test
  void appliesDagSimDefaults() {
    Model m = parse("{\"Stages\":[{\"name\":\"S\",\"distr\":{\"type\":\"det\",\"params\":{\"val\":2}}}],\"Cores\":3}");
    assertThat(m.nodes()).isEqualTo(3);
    assertThat(m.users()).isEqualTo(1);
    assertThat(m.maxJobs()).isEqualTo(1000);
    assertThat(m.confIntCoeff()).isEqualTo(1.96);
    assertThat(m.stages().get(0).tasks()).isEqualTo(1);
  }

  @Test
  void readsEveryDistributionFamily() {
    String[] distrs = {
      "{\"type\":\"erl\",\"params\":{\"k\":3,\"lambda\":2}}",
      "{\"type\":\"unif\",\"params\":{\"min\":1,\"max\":3}}",
      "{\"type\":\"norm\",\"params\":{\"mu\":5,\"sigma\":1}}",
      "{\"type\":\"Pnorm\",\"params\":{\"mu\":5,\"sigma\":1,\"tech\":\"refl\"}}",
      "{\"type\":\"lognorm\",\"params\":{\"mu\":1,\"sigma\":0.5}}",
      "{\"type\":\"pareto\",\"params\":{\"xm\":1,\"alpha\":3}}",
      "{\"type\":\"weib\",\"params\":{\"k\":2,\"lambda\":3}}",
      "{\"type\":\"HSE\",\"params\":[[0.25,{\"k\":2,\"lambda\":1}],[0.75,{\"lambda\":2},{\"k\":3,\"lambda\":3}]]}",
      "{\"type\":\"empirical\",\"params\":{\"samples\":[1,2,3]}}",
      "{\"type\":\"emp\",\"params\":{\"samples\":[1,2,3]}}",
      "{\"type\":\"replay\",\"params\":{\"samples\":[1,2,3]}}"
    };
    double[] means = {1.5, 2, 5, 5, Math.exp(1.125), 1.5, 3 * 0.886226925452758, 0.25 * 2 + 0.75 * 1.5, 2, 2, 2};
    for (int i = 0; i < distrs.length; i++) {
      Model m = parse("{\"Stages\":[{\"name\":\"S\",\"distr\":" + distrs[i] + "}],\"Nodes\":1}");
      assertThat(m.stages().get(0).distribution().mean()).as(distrs[i]).isCloseTo(means[i],
          org.assertj.core.api.Assertions.within(1e-9));
    }
  }

  @Test
  void modelWriterRoundTripsEveryFamily() throws IOException {
    String json = ModelWriter.toJson(EngineTest.fig2());
    assertThat(ModelWriter.toJson(parse(json))).isEqualTo(json);
    String[] distrs = {
      "{\"type\":\"erl\",\"params\":{\"k\":3,\"lambda\":2.0}}",
      "{\"type\":\"Pnorm\",\"params\":{\"mu\":5.0,\"sigma\":1.0,\"tech\":\"abs\"}}",
      "{\"type\":\"HSE\",\"params\":[[0.25,{\"k\":2,\"lambda\":1.0}],[0.75,{\"k\":1,\"lambda\":2.0}]]}",
      "{\"type\":\"replay\",\"params\":{\"samples\":[1.0,2.5]}}",
      "{\"type\":\"weib\",\"params\":{\"k\":2.0,\"lambda\":3.0}}"
    };
    for (String d : distrs) {
      Model m = parse("{\"Stages\":[{\"name\":\"S\",\"distr\":" + d + "}],\"Nodes\":1}");
      assertThat(ModelWriter.toJson(m)).contains("\"distr\":" + d);
      assertThat(ModelWriter.toJson(parse(ModelWriter.toJson(m)))).isEqualTo(ModelWriter.toJson(m));
    }
  }

  @Test
  void stageBytesAreOptionalAndRoundTrip() {
    Model old = parse("{\"Stages\":[" + STAGE + "],\"Nodes\":2}");
    assertThat(old.stages().get(0).inputBytes()).isZero();
    assertThat(old.stages().get(0).shuffleReadBytes()).isZero();
    assertThat(ModelWriter.toJson(old)).doesNotContain("Bytes");
    String withBytes = STAGE.replace("\"tasks\":4", "\"tasks\":4,\"inputBytes\":4096,\"shuffleReadBytes\":12");
    Model m = parse("{\"Stages\":[" + withBytes + "],\"Nodes\":2}");
    assertThat(m.stages().get(0).inputBytes()).isEqualTo(4096);
    assertThat(m.stages().get(0).shuffleReadBytes()).isEqualTo(12);
    assertThat(parse(ModelWriter.toJson(m))).isEqualTo(m);
    assertBad("{\"Stages\":[" + STAGE.replace("\"tasks\":4", "\"tasks\":4,\"inputBytes\":-1") + "],\"Nodes\":2}",
        "Stages[0].inputBytes must be an integer >= 0 (-1)");
    assertBad("{\"Stages\":[" + STAGE.replace("\"tasks\":4", "\"tasks\":4,\"shuffleReadBytes\":1.5") + "],"
        + "\"Nodes\":2}", "Stages[0].shuffleReadBytes must be an integer >= 0 (1.5)");
  }

  @Test
  void namesTheOffendingField() {
    assertBad("{\"Stages\":[" + STAGE + "]}", "Nodes is missing");
    assertBad("{\"Stages\":[" + STAGE + "],\"Nodes\":0}", "Nodes must be an integer >= 1 (0)");
    assertBad("{\"Stages\":[" + STAGE + "],\"Nodes\":2,\"Userz\":1}", "Userz is not a model field");
    assertBad("{\"Stages\":[" + STAGE.replace("0.5", "-1") + "],\"Nodes\":2}",
        "Stages[0].distr.params.rate must be > 0 (-1)");
    assertBad("{\"Stages\":[" + STAGE.replace("\"exp\"", "\"gamma\"") + "],\"Nodes\":2}",
        "Stages[0].distr.type is not a supported distribution (gamma");
    assertBad("{\"Stages\":[" + STAGE.replace("\"pre\":[]", "\"pre\":[\"S9\"]") + "],\"Nodes\":2}",
        "Stages[0].pre[0] names no stage (S9)");
    assertBad("{\"Stages\":[" + STAGE + "," + STAGE + "],\"Nodes\":2}", "Stages[1].name repeats");
    assertBad("{\"Stages\":[" + STAGE.replace("\"tasks\":4", "\"tasks\":2.5") + "],\"Nodes\":2}",
        "Stages[0].tasks must be an integer >= 1 (2.5)");
    assertBad("{\"Stages\":[], \"Nodes\":2}", "Stages must be a non-empty array");
    assertBad("{\"Stages\":[" + STAGE + "],\"Nodes\":2,\"taskChoice\":\"lifo\"}", "taskChoice must be fifo or random");
    assertBad("not json", "not valid JSON");
  }

  @Test
  void rejectsCyclesAndInconsistentPost() {
    String a = "{\"name\":\"A\",\"pre\":[\"B\"],\"distr\":{\"type\":\"det\",\"params\":{\"val\":1}}}";
    String b = "{\"name\":\"B\",\"pre\":[\"A\"],\"distr\":{\"type\":\"det\",\"params\":{\"val\":1}}}";
    assertBad("{\"Stages\":[" + a + "," + b + "],\"Nodes\":1}", "closes a cycle");
    String c = "{\"name\":\"C\",\"post\":[\"D\"],\"distr\":{\"type\":\"det\",\"params\":{\"val\":1}}}";
    String d = "{\"name\":\"D\",\"distr\":{\"type\":\"det\",\"params\":{\"val\":1}}}";
    assertBad("{\"Stages\":[" + c + "," + d + "],\"Nodes\":1}", "Stages[0].post[0] is D, but D does not list C");
  }

  private static void assertBad(String json, String message) {
    assertThatThrownBy(() -> parse(json))
        .isInstanceOf(BadInputException.class)
        .hasMessageStartingWith("Cannot read model m.json: ")
        .hasMessageContaining(message);
  }
}
