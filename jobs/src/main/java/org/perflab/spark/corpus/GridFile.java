package org.perflab.spark.corpus;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.perflab.errors.BadInputException;
import org.perflab.spark.workload.Scale;
import org.perflab.spark.workload.HiBenchWorkload;

/**
 * Reads and validates a grid file (JSON, see docs/corpus.md). Every problem is a {@link BadInputException} naming the
 * field, e.g. {@code Cannot read grid g.json: sweeps[1].executors[0] must be at least 1 (0)}, before anything runs.
 */
public final class GridFile {
  private static final Set<String> GRID_FIELDS = Set.of("name", "description", "timeoutSeconds", "partitions", "seed",
      "prepareMaster", "repetitions", "conf", "cluster", "sweeps");
  private static final Set<String> SWEEP_FIELDS = Set.of("name", "master", "workloads", "scales", "executors",
      "coresPerExecutor", "executorMemory", "repetitions", "timeoutSeconds", "conf", "workloadArgs");
  private static final Set<String> CLUSTER_FIELDS = Set.of("workers", "workerCores", "workerMemory");
  private static final Pattern MEMORY = Pattern.compile("[1-9][0-9]*[kmgtKMGT]?");
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]*");
  static final String LOCAL_CLUSTER = "local-cluster";

  private final String source;

  private GridFile(String source) {
    this.source = source;
  }

  /** Reads {@code file}; throws {@link BadInputException} for a missing, malformed or invalid grid. */
  public static CorpusGrid read(Path file) {
    String text;
    try {
      text = Files.readString(file);
    } catch (java.nio.file.NoSuchFileException e) {
      throw new BadInputException("Cannot read grid " + file + ": no such file (" + file + ")", e);
    } catch (IOException e) {
      throw new BadInputException("Cannot read grid " + file + ": " + e.getMessage() + " (" + file + ")", e);
    }
    return parse(text, file.toString());
  }

  /** Parses grid JSON; {@code source} names it in messages. */
  public static CorpusGrid parse(String json, String source) {
    JsonNode root;
    try {
      root = new ObjectMapper().readTree(json);
    } catch (JsonProcessingException e) {
      throw new BadInputException("Cannot read grid " + source + ": not valid JSON (" + e.getOriginalMessage() + ")", e);
    }
    return new GridFile(source).grid(root);
  }

  private CorpusGrid grid(JsonNode root) {
    require(root != null && root.isObject(), "the top level must be a JSON object", "", root);
    knownFields(root, GRID_FIELDS, "");
    String name = text(root, "name", "", "name");
    require(NAME.matcher(name).matches() && !name.isEmpty(), "must be a non-empty name of letters, digits, _, . or -",
        "name", name);
    int timeout = integer(root, "timeoutSeconds", 600, "timeoutSeconds", 1);
    int partitions = integer(root, "partitions", 8, "partitions", 1);
    long seed = root.has("seed") ? integerNode(root.get("seed"), "seed").longValue() : 42L;
    String prepareMaster = text(root, "prepareMaster", "local[*]", "prepareMaster");
    int repetitions = integer(root, "repetitions", 1, "repetitions", 1);
    Map<String, String> conf = conf(root.get("conf"), "conf");
    LocalClusterSpec cluster = cluster(root.get("cluster"));
    JsonNode sweepsNode = root.get("sweeps");
    require(sweepsNode != null && sweepsNode.isArray() && !sweepsNode.isEmpty(), "must be a non-empty list",
        "sweeps", sweepsNode);
    List<CorpusSweep> sweeps = new ArrayList<>();
    for (int i = 0; i < sweepsNode.size(); i++) {
      sweeps.add(sweep(sweepsNode.get(i), "sweeps[" + i + "]", repetitions, timeout, cluster));
    }
    CorpusGrid grid = new CorpusGrid(name, timeout, partitions, seed, prepareMaster, conf, cluster, sweeps);
    uniqueIds(grid);
    return grid;
  }

  private CorpusSweep sweep(JsonNode node, String path, int defaultRepetitions, int defaultTimeout,
      LocalClusterSpec cluster) {
    require(node.isObject(), "must be a JSON object", path, node);
    knownFields(node, SWEEP_FIELDS, path + ".");
    String name = text(node, "name", "", path + ".name");
    require(NAME.matcher(name).matches(), "must be letters, digits, _, . or -", path + ".name", name);
    String master = text(node, "master", "local", path + ".master");
    require(!master.isBlank(), "must not be empty", path + ".master", master);
    MasterKind kind = master.equals("local") ? MasterKind.LOCAL
        : master.equals(LOCAL_CLUSTER) ? MasterKind.LOCAL_CLUSTER : MasterKind.URL;
    require(kind != MasterKind.URL || !master.startsWith("local"),
        "must be local, local-cluster or a cluster master URL (use coresPerExecutor for local[N])",
        path + ".master", master);
    List<HiBenchWorkload> workloads = list(node, "workloads", path, null, n -> parsed(n, HiBenchWorkload::parse));
    List<Scale> scales = list(node, "scales", path, List.of(Scale.TINY), n -> parsed(n, Scale::parse));
    List<Integer> executors = list(node, "executors", path, List.of(1), n -> positive(n));
    List<Integer> cores = list(node, "coresPerExecutor", path, List.of(1), n -> positive(n));
    List<String> memory = list(node, "executorMemory", path, List.of("1g"), n -> memory(n));
    int repetitions = integer(node, "repetitions", defaultRepetitions, path + ".repetitions", 1);
    int timeout = integer(node, "timeoutSeconds", defaultTimeout, path + ".timeoutSeconds", 1);
    if (kind == MasterKind.LOCAL) {
      for (int i = 0; i < executors.size(); i++) {
        require(executors.get(i) == 1, "must be 1 on a local master (one executor: the driver)",
            path + ".executors[" + i + "]", executors.get(i));
      }
    }
    if (kind == MasterKind.LOCAL_CLUSTER) {
      int maxCores = cores.stream().mapToInt(Integer::intValue).max().orElse(1);
      int maxExecutors = executors.stream().mapToInt(Integer::intValue).max().orElse(1);
      require(maxCores <= cluster.workerCores(), "must not exceed cluster.workerCores (" + cluster.workerCores() + ")",
          path + ".coresPerExecutor", maxCores);
      require(maxCores * maxExecutors <= cluster.totalCores(),
          "times coresPerExecutor must not exceed the cluster's cores (" + cluster.totalCores() + ")",
          path + ".executors", maxExecutors);
    }
    return new CorpusSweep(name, kind, kind == MasterKind.URL ? master : "", workloads, scales, executors, cores, memory,
        repetitions, timeout, conf(node.get("conf"), path + ".conf"), args(node.get("workloadArgs"), path + ".workloadArgs"));
  }

  private LocalClusterSpec cluster(JsonNode node) {
    if (node == null) {
      return LocalClusterSpec.DEFAULT;
    }
    require(node.isObject(), "must be a JSON object", "cluster", node);
    knownFields(node, CLUSTER_FIELDS, "cluster.");
    LocalClusterSpec defaults = LocalClusterSpec.DEFAULT;
    String memory = text(node, "workerMemory", defaults.workerMemory(), "cluster.workerMemory");
    require(MEMORY.matcher(memory).matches(), "must be a Spark size such as 2g", "cluster.workerMemory", memory);
    return new LocalClusterSpec(integer(node, "workers", defaults.workers(), "cluster.workers", 1),
        integer(node, "workerCores", defaults.workerCores(), "cluster.workerCores", 1), memory);
  }

  private <T> List<T> list(JsonNode node, String field, String path, List<T> defaults, Function<Item, T> parse) {
    JsonNode value = node.get(field);
    String fieldPath = path + "." + field;
    if (value == null) {
      require(defaults != null, "is required", fieldPath, null);
      return defaults;
    }
    require(value.isArray() && !value.isEmpty(), "must be a non-empty list", fieldPath, value);
    List<T> items = new ArrayList<>();
    for (int i = 0; i < value.size(); i++) {
      items.add(parse.apply(new Item(value.get(i), fieldPath + "[" + i + "]")));
    }
    return List.copyOf(items);
  }

  /** One list element and its path, for messages. */
  private record Item(JsonNode node, String path) {}

  private <T> T parsed(Item item, Function<String, T> parser) {
    require(item.node().isTextual(), "must be a string", item.path(), item.node());
    try {
      return parser.apply(item.node().asText());
    } catch (IllegalArgumentException e) {
      String reason = e.getMessage().substring(e.getMessage().indexOf(": ") + 2);
      throw new BadInputException("Cannot read grid " + source + ": " + item.path() + " " + reason);
    }
  }

  private Integer positive(Item item) {
    int value = integerNode(item.node(), item.path()).intValue();
    require(value >= 1, "must be at least 1", item.path(), value);
    return value;
  }

  private String memory(Item item) {
    require(item.node().isTextual() && MEMORY.matcher(item.node().asText()).matches(),
        "must be a Spark size such as 1g or 512m", item.path(), item.node());
    return item.node().asText();
  }

  private Map<String, String> conf(JsonNode node, String path) {
    Map<String, String> conf = new LinkedHashMap<>();
    if (node == null) {
      return conf;
    }
    require(node.isObject(), "must be a JSON object of Spark properties", path, node);
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> entry = it.next();
      require(entry.getKey().startsWith("spark."), "keys must start with spark.", path, entry.getKey());
      require(entry.getValue().isValueNode(), "values must be strings, numbers or booleans",
          path + "." + entry.getKey(), entry.getValue());
      conf.put(entry.getKey(), entry.getValue().asText());
    }
    return conf;
  }

  private List<String> args(JsonNode node, String path) {
    if (node == null) {
      return List.of();
    }
    require(node.isArray(), "must be a list of strings", path, node);
    List<String> args = new ArrayList<>();
    for (int i = 0; i < node.size(); i++) {
      require(node.get(i).isValueNode(), "must be a string", path + "[" + i + "]", node.get(i));
      args.add(node.get(i).asText());
    }
    return List.copyOf(args);
  }

  private String text(JsonNode node, String field, String defaultValue, String path) {
    JsonNode value = node.get(field);
    if (value == null) {
      return defaultValue;
    }
    require(value.isTextual(), "must be a string", path, value);
    return value.asText();
  }

  private int integer(JsonNode node, String field, int defaultValue, String path, int min) {
    JsonNode value = node.get(field);
    if (value == null) {
      return defaultValue;
    }
    int parsed = integerNode(value, path).intValue();
    require(parsed >= min, "must be at least " + min, path, parsed);
    return parsed;
  }

  private Number integerNode(JsonNode value, String path) {
    require(value.isIntegralNumber(), "must be a whole number", path, value);
    return value.numberValue();
  }

  private void knownFields(JsonNode node, Set<String> known, String prefix) {
    node.fieldNames().forEachRemaining(field -> require(known.contains(field),
        "is not a known field (known: " + String.join(", ", known.stream().sorted().toList()) + ")",
        prefix + field, field));
  }

  private void uniqueIds(CorpusGrid grid) {
    Map<String, Integer> seen = new HashMap<>();
    for (CorpusPoint point : grid.points()) {
      Integer before = seen.put(point.id(), 1);
      require(before == null, "repeats grid point " + point.id() + "; give the sweeps different names",
          "sweeps", point.sweepName());
    }
  }

  private void require(boolean condition, String reason, String path, Object value) {
    if (!condition) {
      throw new BadInputException("Cannot read grid " + source + ": " + (path.isEmpty() ? "" : path + " ") + reason
          + " (" + value + ")");
    }
  }
}
