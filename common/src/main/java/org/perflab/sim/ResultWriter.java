package org.perflab.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;
import java.util.Map;

/** Writes a {@link Result} as the simulate job's JSON (documented in docs/simulator.md). */
public final class ResultWriter {
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private ResultWriter() {}

  /** The result as pretty-printed JSON text. */
  public static String toJson(Result result) {
    ObjectNode root = JSON.createObjectNode();
    root.put("seed", result.seed());
    root.put("applications", result.applications());
    root.put("tasks", result.tasks());
    root.set("total", measure(result.total()));
    root.set("wait", measure(result.waiting()));
    root.set("execution", measure(result.execution()));
    ObjectNode stages = root.putObject("stages");
    for (Map.Entry<String, StageResult> e : result.stages().entrySet()) {
      ObjectNode s = stages.putObject(e.getKey());
      s.set("start_offset", measure(e.getValue().startOffset()));
      s.set("end_offset", measure(e.getValue().endOffset()));
      s.set("duration", measure(e.getValue().duration()));
      s.set("task_time", measure(e.getValue().taskTime()));
    }
    ObjectNode percentiles = root.putObject("percentiles");
    result.percentiles().forEach(percentiles::put);
    try {
      return JSON.writeValueAsString(root);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static ObjectNode measure(Measure m) {
    ObjectNode node = JSON.createObjectNode();
    node.put("mean", m.mean());
    node.put("std", m.std());
    node.put("ci_low", m.ciLow());
    node.put("ci_high", m.ciHigh());
    return node;
  }
}
