package org.perflab.recommend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Iterator;
import java.util.Set;
import org.perflab.errors.BadInputException;

/**
 * A cluster profile ({@code recommend --cluster-profile FILE}): a JSON object with any of the keys
 * {@code price_core_hour} (number ≥ 0, per core-hour), {@code price_gb_hour} (number ≥ 0, per GiB-hour),
 * {@code currency} (string) and {@code max_executors} (integer ≥ 1). Options given on the command line override the
 * profile's values key by key; the merged values are then validated as the options are ({@link Prices#of},
 * {@link Objective}). Example: {@code {"currency": "USD", "price_core_hour": 0.048, "price_gb_hour": 0.0065,
 * "max_executors": 64}}.
 *
 * @param perCoreHour {@code price_core_hour}; null when absent
 * @param perGbHour {@code price_gb_hour}; null when absent
 * @param currency {@code currency}; null when absent
 * @param maxExecutors {@code max_executors}; null when absent
 */
public record ClusterProfile(Double perCoreHour, Double perGbHour, String currency, Integer maxExecutors) {
  private static final Set<String> KEYS = Set.of("price_core_hour", "price_gb_hour", "currency", "max_executors");

  /** An empty profile: no file given. */
  public static ClusterProfile none() {
    return new ClusterProfile(null, null, null, null);
  }

  /**
   * Parses a profile.
   *
   * @param json the file's text
   * @param source the file, for messages
   * @throws BadInputException when it is not a JSON object of the keys above with values of their types
   */
  public static ClusterProfile parse(String json, String source) {
    JsonNode root;
    try {
      root = new ObjectMapper().readTree(json);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new BadInputException("Cannot read the cluster profile: not JSON, " + e.getOriginalMessage() + " ("
          + source + ")", e);
    }
    BadInputException.require(root != null && root.isObject(), "Cannot read the cluster profile: not a JSON object "
        + "(%s; keys %s)", source, KEYS);
    for (Iterator<String> it = root.fieldNames(); it.hasNext();) {
      String key = it.next();
      BadInputException.require(KEYS.contains(key), "Cannot read the cluster profile: unknown key %s (%s; keys %s)",
          key, source, KEYS);
    }
    return new ClusterProfile(number(root, "price_core_hour", source), number(root, "price_gb_hour", source),
        text(root, "currency", source), integer(root, "max_executors", source));
  }

  /** The profile's value, unless the option gives one. */
  public static <T> T merge(T option, T profile) {
    return option != null ? option : profile;
  }

  private static Double number(JsonNode root, String key, String source) {
    JsonNode n = root.get(key);
    if (n == null || n.isNull()) {
      return null;
    }
    BadInputException.require(n.isNumber(), "Cannot read the cluster profile: %s is %s (a number >= 0; %s)", key, n,
        source);
    return n.doubleValue();
  }

  private static Integer integer(JsonNode root, String key, String source) {
    JsonNode n = root.get(key);
    if (n == null || n.isNull()) {
      return null;
    }
    BadInputException.require(n.isIntegralNumber() && n.canConvertToInt(), "Cannot read the cluster profile: %s is "
        + "%s (an integer >= 1; %s)", key, n, source);
    return n.intValue();
  }

  private static String text(JsonNode root, String key, String source) {
    JsonNode n = root.get(key);
    if (n == null || n.isNull()) {
      return null;
    }
    BadInputException.require(n.isTextual(), "Cannot read the cluster profile: %s is %s (a string; %s)", key, n,
        source);
    return n.textValue();
  }
}
