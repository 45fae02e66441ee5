package org.perflab.sweep;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.perflab.costmodel.Codec;
import org.perflab.costmodel.SerializerKind;
import org.perflab.errors.BadInputException;

/**
 * Reads a grid file: {@code {"executors": [2, 4], "coresPerExecutor": [1, 2, 4], "executorMemoryGb": [4, 8],
 * "inputGb": [0.5, 1, 2], "codecs": ["lz4", "zstd"], "serializers": ["java", "kryo"], "replications": 4}};
 * {@code executorMemoryGb} is optional, the input sizes are optional ({@code inputBytes}, integers, or
 * {@code inputGb}, GiB of 2^30 bytes, never both), so are {@code codecs} ({@code spark.io.compression.codec} values)
 * and {@code serializers} ({@code spark.serializer} values), and {@code replications} defaults to 1. Errors name the
 * offending field.
 */
public final class GridReader {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<String> FIELDS = Set.of("executors", "coresPerExecutor", "executorMemoryGb",
      "inputBytes", "inputGb", "codecs", "serializers", "replications");
  /** Bytes in one {@code inputGb}: a GiB, as Spark's {@code 1g}. */
  public static final long BYTES_PER_GB = 1L << 30;

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
    List<Long> input = inputBytes(root, source);
    int replications = 1;
    if (root.has("replications")) {
      JsonNode r = root.get("replications");
      require(r.isIntegralNumber() && r.asInt() >= 1, source, "replications", "must be an integer >= 1 (" + r + ")");
      replications = r.asInt();
    }
    List<Codec> codecs = names(root.get("codecs"), "codecs", source, Codec::parse);
    List<SerializerKind> serializers = names(root.get("serializers"), "serializers", source, SerializerKind::parse);
    try {
      return new Grid(executors, cores, memory, input, codecs, serializers, replications);
    } catch (BadInputException e) {
      throw new BadInputException(e.getMessage().replace("Cannot use grid:", "Cannot read grid " + source + ":"));
    }
  }

  /** The input sizes in bytes, from {@code inputBytes} or {@code inputGb}; empty when neither is given. */
  private static List<Long> inputBytes(JsonNode root, String source) {
    require(!(root.has("inputBytes") && root.has("inputGb")), source, "inputGb", "cannot be given with inputBytes");
    List<Long> sizes = new ArrayList<>();
    String field = root.has("inputBytes") ? "inputBytes" : "inputGb";
    JsonNode node = root.get(field);
    if (node == null) {
      return sizes;
    }
    require(node.isArray() && !node.isEmpty(), source, field, "must be a non-empty array of sizes");
    for (int i = 0; i < node.size(); i++) {
      JsonNode v = node.get(i);
      if (field.equals("inputBytes")) {
        require(v.isIntegralNumber() && v.canConvertToLong() && v.asLong() >= 1, source, field + "[" + i + "]",
            "must be an integer >= 1 (" + v + ")");
        sizes.add(v.asLong());
      } else {
        require(v.isNumber() && v.asDouble() > 0 && v.asDouble() * BYTES_PER_GB < Long.MAX_VALUE, source,
            field + "[" + i + "]", "must be a number > 0 (" + v + ")");
        sizes.add(Math.max(1, Math.round(v.asDouble() * BYTES_PER_GB)));
      }
    }
    return sizes;
  }

  /** The settings named by an optional array of strings; empty when the field is absent. */
  private static <T> List<T> names(JsonNode node, String field, String source, Function<String, T> parse) {
    List<T> out = new ArrayList<>();
    if (node == null) {
      return out;
    }
    require(node.isArray() && !node.isEmpty(), source, field, "must be a non-empty array of names");
    for (int i = 0; i < node.size(); i++) {
      JsonNode v = node.get(i);
      require(v.isTextual(), source, field + "[" + i + "]", "must be a name (" + v + ")");
      try {
        out.add(parse.apply(v.asText()));
      } catch (BadInputException e) {
        throw new BadInputException("Cannot read grid " + source + ": " + field + "[" + i + "] " + e.getMessage()
            .replaceFirst("^Cannot parse ", "is not a value of "), e);
      }
    }
    return out;
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
