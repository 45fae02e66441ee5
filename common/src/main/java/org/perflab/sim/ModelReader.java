package org.perflab.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.perflab.errors.BadInputException;

/**
 * Reads a model file: JSON whose fields mirror dagSim's Lua vocabulary ({@code Stages}, {@code Nodes}, {@code Users},
 * {@code UThinkTimeDistr}, {@code maxJobs}, {@code confIntCoeff}) plus {@code seed} and {@code taskChoice}, and per
 * stage the optional {@code inputBytes} and {@code shuffleReadBytes} (absent in older files: read as 0). Every
 * problem is a {@link BadInputException} that names the offending field, e.g.
 * {@code Stages[2].distr.params.rate}. The format is documented in docs/simulator.md.
 */
public final class ModelReader {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<String> TOP_FIELDS =
      Set.of("Stages", "Nodes", "Cores", "Users", "UThinkTimeDistr", "maxJobs", "confIntCoeff", "seed", "taskChoice");
  private static final Set<String> STAGE_FIELDS = Set.of("name", "tasks", "pre", "post", "distr", "inputBytes",
      "shuffleReadBytes");

  private final String source;

  private ModelReader(String source) {
    this.source = source;
  }

  /** Parses model JSON; {@code source} (a file name) only appears in error messages. */
  public static Model parse(String json, String source) {
    JsonNode root;
    try {
      root = JSON.readTree(json);
    } catch (JsonProcessingException e) {
      throw new BadInputException(
          "Cannot read model " + source + ": not valid JSON (" + e.getOriginalMessage() + ")", e);
    }
    return new ModelReader(source).model(root);
  }

  /** Parses a distribution object {@code {"type": ..., "params": {...}}}; {@code field} names it in errors. */
  public static Distribution parseDistribution(JsonNode node, String field, String source) {
    return new ModelReader(source).distribution(node, field);
  }

  private Model model(JsonNode root) {
    require(root != null && root.isObject(), "the model", "must be a JSON object");
    for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
      String name = it.next();
      require(TOP_FIELDS.contains(name), name, "is not a model field (one of " + TOP_FIELDS + ")");
    }
    JsonNode stagesNode = root.get("Stages");
    require(stagesNode != null && stagesNode.isArray() && !stagesNode.isEmpty(), "Stages",
        "must be a non-empty array of stages");
    List<Stage> stages = new ArrayList<>();
    for (int i = 0; i < stagesNode.size(); i++) {
      stages.add(stage(stagesNode.get(i), "Stages[" + i + "]"));
    }
    require(root.has("Nodes") || root.has("Cores"), "Nodes", "is missing (number of task slots, >= 1)");
    require(!(root.has("Nodes") && root.has("Cores")), "Cores", "cannot be given together with Nodes");
    String nodesField = root.has("Nodes") ? "Nodes" : "Cores";
    int nodes = positiveInt(root.get(nodesField), nodesField);
    int users = root.has("Users") ? positiveInt(root.get("Users"), "Users") : 1;
    Distribution think =
        root.has("UThinkTimeDistr")
            ? distribution(root.get("UThinkTimeDistr"), "UThinkTimeDistr")
            : new Distribution.Deterministic(0.0);
    int maxJobs = root.has("maxJobs") ? positiveInt(root.get("maxJobs"), "maxJobs") : Model.DEFAULT_MAX_JOBS;
    double z = root.has("confIntCoeff") ? positive(root.get("confIntCoeff"), "confIntCoeff")
        : Model.DEFAULT_CONF_INT_COEFF;
    long seed = 1L;
    if (root.has("seed")) {
      require(root.get("seed").canConvertToLong() && root.get("seed").isIntegralNumber(), "seed",
          "must be an integer (" + root.get("seed") + ")");
      seed = root.get("seed").asLong();
    }
    TaskChoice choice = TaskChoice.FIFO;
    if (root.has("taskChoice")) {
      String c = root.get("taskChoice").asText("").toUpperCase(Locale.ROOT);
      require(c.equals("FIFO") || c.equals("RANDOM"), "taskChoice",
          "must be fifo or random (" + root.get("taskChoice") + ")");
      choice = TaskChoice.valueOf(c);
    }
    try {
      return new Model(stages, nodes, users, think, maxJobs, z, seed, choice);
    } catch (BadInputException e) {
      throw new BadInputException(e.getMessage().replace("Cannot use model:", "Cannot read model " + source + ":"));
    }
  }

  private Stage stage(JsonNode node, String field) {
    require(node.isObject(), field, "must be an object");
    for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
      String name = it.next();
      require(STAGE_FIELDS.contains(name), field + "." + name, "is not a stage field (one of " + STAGE_FIELDS + ")");
    }
    JsonNode name = node.get("name");
    require(name != null && name.isTextual() && !name.asText().isEmpty(), field + ".name",
        "must be a non-empty string");
    int tasks = node.has("tasks") ? positiveInt(node.get("tasks"), field + ".tasks") : 1;
    List<String> pre = names(node.get("pre"), field + ".pre");
    List<String> post = names(node.get("post"), field + ".post");
    require(node.has("distr"), field + ".distr", "is missing");
    Distribution distr = distribution(node.get("distr"), field + ".distr");
    long input = node.has("inputBytes") ? bytes(node.get("inputBytes"), field + ".inputBytes") : 0L;
    long shuffle = node.has("shuffleReadBytes") ? bytes(node.get("shuffleReadBytes"), field + ".shuffleReadBytes") : 0L;
    return new Stage(name.asText(), tasks, pre, post, distr, input, shuffle);
  }

  private List<String> names(JsonNode node, String field) {
    List<String> out = new ArrayList<>();
    if (node == null || node.isNull()) {
      return out;
    }
    require(node.isArray(), field, "must be an array of stage names");
    for (int i = 0; i < node.size(); i++) {
      require(node.get(i).isTextual(), field + "[" + i + "]", "must be a stage name (" + node.get(i) + ")");
      out.add(node.get(i).asText());
    }
    return out;
  }

  private Distribution distribution(JsonNode node, String field) {
    require(node != null && node.isObject(), field, "must be an object {\"type\": ..., \"params\": {...}}");
    JsonNode type = node.get("type");
    require(type != null && type.isTextual(), field + ".type", "is missing");
    JsonNode params = node.get("params");
    require(params != null && (params.isObject() || params.isArray()), field + ".params", "is missing");
    String p = field + ".params";
    return switch (type.asText()) {
      case "exp" -> new Distribution.Exponential(positive(params.get("rate"), p + ".rate"));
      case "erl" -> new Distribution.Erlang(
          positiveInt(params.get("k"), p + ".k"), positive(params.get("lambda"), p + ".lambda"));
      case "det" -> new Distribution.Deterministic(nonNegative(params.get("val"), p + ".val"));
      case "unif" -> uniform(params, p);
      case "norm" -> new Distribution.Normal(
          finite(params.get("mu"), p + ".mu"), nonNegative(params.get("sigma"), p + ".sigma"));
      case "Pnorm" -> positiveNormal(params, p);
      case "lognorm" -> new Distribution.LogNormal(
          finite(params.get("mu"), p + ".mu"), nonNegative(params.get("sigma"), p + ".sigma"));
      case "pareto" -> new Distribution.Pareto(
          positive(params.get("xm"), p + ".xm"), positive(params.get("alpha"), p + ".alpha"));
      case "weib" -> new Distribution.Weibull(
          positive(params.get("k"), p + ".k"), positive(params.get("lambda"), p + ".lambda"));
      case "HSE" -> hyperSum(params, p);
      case "empirical", "emp" -> new Distribution.Empirical(samples(params, p));
      case "replay" -> new Distribution.Replay(samples(params, p));
      default -> throw bad(field + ".type",
          "is not a supported distribution (" + type.asText()
              + "; one of exp, erl, det, unif, norm, Pnorm, lognorm, pareto, weib, HSE, empirical, emp, replay)");
    };
  }

  private Distribution uniform(JsonNode params, String p) {
    double min = nonNegative(params.get("min"), p + ".min");
    double max = nonNegative(params.get("max"), p + ".max");
    require(min <= max, p + ".max", "must be >= min (" + min + " > " + max + ")");
    return new Distribution.Uniform(min, max);
  }

  private Distribution positiveNormal(JsonNode params, String p) {
    String tech = params.has("tech") ? params.get("tech").asText() : "trunc";
    require(Set.of("trunc", "abs", "refl").contains(tech), p + ".tech", "must be trunc, abs or refl (" + tech + ")");
    return new Distribution.PositiveNormal(
        finite(params.get("mu"), p + ".mu"), nonNegative(params.get("sigma"), p + ".sigma"),
        Distribution.Positivity.valueOf(tech.toUpperCase(Locale.ROOT)));
  }

  /** HSE params: an array of branches, each {@code [prob, {"k": k1, "lambda": l1}, {"k": k2, ...}, ...]}. */
  private Distribution hyperSum(JsonNode params, String p) {
    require(params.isArray() && !params.isEmpty(), p,
        "must be an array of branches [prob, {\"k\": .., \"lambda\": ..}, ...]");
    List<Distribution.ErlangBranch> branches = new ArrayList<>();
    double probSum = 0;
    for (int i = 0; i < params.size(); i++) {
      JsonNode b = params.get(i);
      String bf = p + "[" + i + "]";
      require(b.isArray() && b.size() >= 2, bf, "must be [prob, {\"k\": .., \"lambda\": ..}, ...]");
      double prob = nonNegative(b.get(0), bf + "[0]");
      probSum += prob;
      int[] k = new int[b.size() - 1];
      double[] lambda = new double[b.size() - 1];
      for (int j = 1; j < b.size(); j++) {
        JsonNode st = b.get(j);
        require(st.isObject(), bf + "[" + j + "]", "must be {\"k\": .., \"lambda\": ..}");
        k[j - 1] = st.has("k") ? positiveInt(st.get("k"), bf + "[" + j + "].k") : 1;
        lambda[j - 1] = positive(st.get("lambda"), bf + "[" + j + "].lambda");
      }
      branches.add(new Distribution.ErlangBranch(prob, k, lambda));
    }
    require(Math.abs(probSum - 1.0) < 1e-6, p, "branch probabilities must sum to 1 (" + probSum + ")");
    return new Distribution.HyperSumOfErlangs(branches);
  }

  private double[] samples(JsonNode params, String p) {
    JsonNode s = params.get("samples");
    require(s != null && s.isArray() && !s.isEmpty(), p + ".samples", "must be a non-empty array of numbers");
    double[] out = new double[s.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = nonNegative(s.get(i), p + ".samples[" + i + "]");
    }
    return out;
  }

  private double finite(JsonNode node, String field) {
    require(node != null, field, "is missing");
    require(node.isNumber() && Double.isFinite(node.asDouble()), field, "must be a finite number (" + node + ")");
    return node.asDouble();
  }

  private double positive(JsonNode node, String field) {
    double v = finite(node, field);
    require(v > 0, field, "must be > 0 (" + node + ")");
    return v;
  }

  private double nonNegative(JsonNode node, String field) {
    double v = finite(node, field);
    require(v >= 0, field, "must be >= 0 (" + node + ")");
    return v;
  }

  private long bytes(JsonNode node, String field) {
    require(node.isIntegralNumber() && node.canConvertToLong() && node.asLong() >= 0, field,
        "must be an integer >= 0 (" + node + ")");
    return node.asLong();
  }

  private int positiveInt(JsonNode node, String field) {
    double v = finite(node, field);
    require(v == Math.rint(v) && v >= 1 && v <= Integer.MAX_VALUE, field,
        "must be an integer >= 1 (" + node + ")");
    return (int) v;
  }

  private void require(boolean condition, String field, String reason) {
    if (!condition) {
      throw bad(field, reason);
    }
  }

  private BadInputException bad(String field, String reason) {
    return new BadInputException("Cannot read model " + source + ": " + field + " " + reason);
  }
}
