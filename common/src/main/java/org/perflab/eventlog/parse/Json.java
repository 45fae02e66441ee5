package org.perflab.eventlog.parse;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/** Null-tolerant field access on Jackson trees, with required-field checks that name the missing field. */
final class Json {
  private Json() {}

  static JsonNode node(JsonNode parent, String field) {
    if (parent == null) {
      return null;
    }
    JsonNode child = parent.get(field);
    return child == null || child.isNull() ? null : child;
  }

  static JsonNode requireNode(JsonNode parent, String field) {
    JsonNode child = node(parent, field);
    if (child == null) {
      throw new MissingFieldException(field);
    }
    return child;
  }

  static String text(JsonNode parent, String field) {
    JsonNode child = node(parent, field);
    return child == null ? null : child.asText();
  }

  static String requireText(JsonNode parent, String field) {
    return requireNode(parent, field).asText();
  }

  static Long longValue(JsonNode parent, String field) {
    JsonNode child = node(parent, field);
    if (child == null) {
      return null;
    }
    if (child.isNumber()) {
      return child.longValue();
    }
    if (child.isTextual()) {
      try {
        return Long.parseLong(child.asText().trim());
      } catch (NumberFormatException e) {
        return null;
      }
    }
    return null;
  }

  static long requireLong(JsonNode parent, String field) {
    Long value = longValue(parent, field);
    if (value == null) {
      throw new MissingFieldException(field);
    }
    return value;
  }

  static Integer intValue(JsonNode parent, String field) {
    Long value = longValue(parent, field);
    return value == null ? null : value.intValue();
  }

  static int requireInt(JsonNode parent, String field) {
    return (int) requireLong(parent, field);
  }

  static boolean flag(JsonNode parent, String field) {
    JsonNode child = node(parent, field);
    return child != null && child.asBoolean();
  }

  static List<Integer> ints(JsonNode parent, String field) {
    List<Integer> values = new ArrayList<>();
    JsonNode array = node(parent, field);
    if (array != null && array.isArray()) {
      for (JsonNode element : array) {
        values.add(element.asInt());
      }
    }
    return values;
  }

  /** A field that an event of a known type must carry but does not. */
  static final class MissingFieldException extends RuntimeException {
    MissingFieldException(String field) {
      super("missing field '" + field + "'", null, false, false);
    }
  }
}
