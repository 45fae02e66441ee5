package org.perflab.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;
import java.util.Locale;

/** Writes a {@link Model} as a model file that {@link ModelReader} reads back to an equal model. */
public final class ModelWriter {
  private static final ObjectMapper JSON = new ObjectMapper();

  private ModelWriter() {}

  /** The model as compact JSON in the model-file format (docs/simulator.md). */
  public static String toJson(Model model) {
    ObjectNode root = JSON.createObjectNode();
    ArrayNode stages = root.putArray("Stages");
    for (Stage s : model.stages()) {
      ObjectNode st = stages.addObject();
      st.put("name", s.name());
      st.put("tasks", s.tasks());
      s.pre().forEach(st.putArray("pre")::add);
      s.post().forEach(st.putArray("post")::add);
      st.set("distr", distribution(s.distribution()));
      if (s.inputBytes() > 0) {
        st.put("inputBytes", s.inputBytes());
      }
      if (s.shuffleReadBytes() > 0) {
        st.put("shuffleReadBytes", s.shuffleReadBytes());
      }
    }
    root.put("Nodes", model.nodes());
    root.put("Users", model.users());
    root.set("UThinkTimeDistr", distribution(model.thinkTime()));
    root.put("maxJobs", model.maxJobs());
    root.put("confIntCoeff", model.confIntCoeff());
    root.put("seed", model.seed());
    root.put("taskChoice", model.taskChoice().name().toLowerCase(Locale.ROOT));
    try {
      return JSON.writeValueAsString(root);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  static ObjectNode distribution(Distribution d) {
    ObjectNode node = JSON.createObjectNode();
    node.put("type", d.type());
    if (d instanceof Distribution.HyperSumOfErlangs h) {
      ArrayNode branches = node.putArray("params");
      for (Distribution.ErlangBranch b : h.branches()) {
        ArrayNode branch = branches.addArray();
        branch.add(b.prob());
        for (int i = 0; i < b.k().length; i++) {
          branch.addObject().put("k", b.k()[i]).put("lambda", b.lambda()[i]);
        }
      }
      return node;
    }
    ObjectNode p = node.putObject("params");
    if (d instanceof Distribution.Exponential e) {
      p.put("rate", e.rate());
    } else if (d instanceof Distribution.Erlang e) {
      p.put("k", e.k()).put("lambda", e.lambda());
    } else if (d instanceof Distribution.Deterministic e) {
      p.put("val", e.val());
    } else if (d instanceof Distribution.Uniform e) {
      p.put("min", e.min()).put("max", e.max());
    } else if (d instanceof Distribution.Normal e) {
      p.put("mu", e.mu()).put("sigma", e.sigma());
    } else if (d instanceof Distribution.PositiveNormal e) {
      p.put("mu", e.mu()).put("sigma", e.sigma()).put("tech", e.tech().name().toLowerCase(Locale.ROOT));
    } else if (d instanceof Distribution.LogNormal e) {
      p.put("mu", e.mu()).put("sigma", e.sigma());
    } else if (d instanceof Distribution.Pareto e) {
      p.put("xm", e.xm()).put("alpha", e.alpha());
    } else if (d instanceof Distribution.Weibull e) {
      p.put("k", e.k()).put("lambda", e.lambda());
    } else if (d instanceof Distribution.Empirical e) {
      ArrayNode a = p.putArray("samples");
      for (double v : e.samples()) {
        a.add(v);
      }
    } else if (d instanceof Distribution.Replay e) {
      ArrayNode a = p.putArray("samples");
      for (double v : e.samples()) {
        a.add(v);
      }
    }
    return node;
  }
}
