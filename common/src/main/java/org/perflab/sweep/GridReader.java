package org.perflab.sweep;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import org.perflab.errors.BadInputException;

/**
 * Reads a grid file: {@code {"executors": [2, 4], "coresPerExecutor": [1, 2, 4], "executorMemoryGb": [4, 8],
 * "replications": 4}}; {@code executorMemoryGb} is optional and {@code replications} defaults to 1. Errors name the
 * offending field.
 */
public final class GridReader {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<String> FIELDS = Set.of("executors", "coresPerExecutor", "executorMemoryGb",
      "replications");

  private GridReader() {}

  public static Grid parse(String json, String source) {
    JsonNode root;
    try {
      root = JSON.readTree(json);
    } catch (JsonProcessingException e) {
      throw new BadInputException("Cannot read grid " + source + ": not valid JSON (" + e.getOriginalMessage() + ")",
          e);
    }
    require(root != null && root.isObject(), source, "the grid", "must be a JSON object");
    for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
      String name = it.next();
      require(FIELDS.contains(name), source, name, "is not a grid field (one of " + FIELDS + ")");
    }
    List<Integer> executors = integers(root.get("executors"), "executors", source);
    List<Integer> cores = integers(root.get("coresPerExecutor"), "coresPerExecutor", source);
    List<Double> memory = new ArrayList<>();
    JsonNode mem = root.get("executorMemoryGb");
    if (mem != null) {
      require(mem.isArray(), source, "executorMemoryGb", "must be an array of numbers");
      for (int i = 0; i < mem.size(); i++) {
        require(mem.get(i).isNumber() && mem.get(i).asDouble() > 0, source, "executorMemoryGb[" + i + "]",
            "must be a number > 0 (" + mem.get(i) + ")");
        memory.add(mem.get(i).asDouble());
      }
    }
    int replications = 1;
    if (root.has("replications")) {
      JsonNode r = root.get("replications");
      require(r.isIntegralNumber() && r.asInt() >= 1, source, "replications", "must be an integer >= 1 (" + r + ")");
      replications = r.asInt();
    }
    try {
      return new Grid(executors, cores, memory, replications);
    } catch (BadInputException e) {
      throw new BadInputException(e.getMessage().replace("Cannot use grid:", "Cannot read grid " + source + ":"));
    }
  }

  private static List<Integer> integers(JsonNode node, String field, String source) {
    require(node != null && node.isArray() && !node.isEmpty(), source, field,
        "must be a non-empty array of integers >= 1");
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < node.size(); i++) {
      JsonNode v = node.get(i);
      require(v.isIntegralNumber() && v.asInt() >= 1, source, field + "[" + i + "]",
          "must be an integer >= 1 (" + v + ")");
      out.add(v.asInt());
    }
    return out;
  }

  private static void require(boolean condition, String source, String field, String reason) {
    if (!condition) {
      throw new BadInputException("Cannot read grid " + source + ": " + field + " " + reason);
    }
  }
}
