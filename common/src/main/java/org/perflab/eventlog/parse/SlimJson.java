package org.perflab.eventlog.parse;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Reads one non-task event line into a Jackson tree, leaving out the {@code "Accumulables"} arrays that no table
 * needs (task events, whose accumulables carry peak memory before Spark 3.0, go to {@link TaskEventReader}). The
 * whole line is still tokenised, so malformed JSON, and trailing text after the event, are still rejected.
 */
final class SlimJson {
  /**
   * Without Jackson's 20,000,000-character limit on strings (Jackson 2.15+): Spark writes plans and descriptions longer
   * than that and reads them back (SPARK-49872). A line is still bounded by {@code EventLogLines.MAX_LINE_BYTES}.
   */
  static final JsonFactory FACTORY = JsonFactory.builder()
      .streamReadConstraints(StreamReadConstraints.builder().maxStringLength(Integer.MAX_VALUE).build())
      .build();
  /**
   * The same without canonicalising field names, for environment updates: their keys are system properties and
   * class-path entries, hundreds of distinct names per log, which fill Jackson's shared symbol table and lengthen its
   * buckets (its lookups were 12 % of the parser's samples over logs of small applications).
   */
  private static final JsonFactory FLAT_FACTORY =
      FACTORY.rebuild().disable(JsonFactory.Feature.CANONICALIZE_FIELD_NAMES).build();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String ACCUMULABLES = "Accumulables";

  private SlimJson() {}

  /** The event, or throws a Jackson exception when the line is not exactly one JSON value. */
  static JsonNode read(String line) throws IOException {
    try (JsonParser parser = FACTORY.createParser(line)) {
      JsonToken first = parser.nextToken();
      if (first == null) {
        throw new JsonParseException(parser, "no JSON value");
      }
      JsonNode value = value(parser, first);
      if (parser.nextToken() != null) {
        throw new JsonParseException(parser, "text after the JSON value");
      }
      return value;
    }
  }

  /**
   * An event whose property sections are read as text, without a tree: the event with every other field as
   * {@link #read} gives it (a section that is not an object stays in it), and each section that is an object as its
   * fields' texts ({@code JsonNode.asText()} of their values), in order, the last of a repeated key or section winning
   * as in a tree. Null when the line's value is valid JSON but not an object.
   *
   * @throws IOException as {@link #read} does: when the line is not exactly one JSON value
   */
  static Environment readEnvironment(String line, Set<String> sections) throws IOException {
    try (JsonParser parser = FLAT_FACTORY.createParser(line)) {
      JsonToken first = parser.nextToken();
      if (first == null) {
        throw new JsonParseException(parser, "no JSON value");
      }
      ObjectNode event = first == JsonToken.START_OBJECT ? NODES.objectNode() : null;
      Map<String, Map<String, String>> texts = new HashMap<>();
      if (event == null) {
        value(parser, first);
      } else {
        for (JsonToken token = parser.nextToken(); token != JsonToken.END_OBJECT; token = parser.nextToken()) {
          String name = parser.currentName();
          JsonToken valueToken = parser.nextToken();
          if (ACCUMULABLES.equals(name)) {
            parser.skipChildren();
          } else if (valueToken == JsonToken.START_OBJECT && sections.contains(name)) {
            texts.put(name, texts(parser));
            event.remove(name);
          } else {
            event.set(name, value(parser, valueToken));
            texts.remove(name);
          }
        }
      }
      if (parser.nextToken() != null) {
        throw new JsonParseException(parser, "text after the JSON value");
      }
      return event == null ? null : new Environment(event, texts);
    }
  }

  /**
   * An environment update: its fields other than the property sections (null when the line holds no object), and
   * each property section's keys and texts.
   */
  record Environment(ObjectNode event, Map<String, Map<String, String>> sections) {}

  /** The object starting at the parser's current token as its fields' texts; a tree only for values not scalar. */
  private static Map<String, String> texts(JsonParser parser) throws IOException {
    Map<String, String> texts = new LinkedHashMap<>();
    for (JsonToken token = parser.nextToken(); token != JsonToken.END_OBJECT; token = parser.nextToken()) {
      String name = parser.currentName();
      JsonToken valueToken = parser.nextToken();
      if (ACCUMULABLES.equals(name)) {
        parser.skipChildren(); // as read() leaves it out of a tree
      } else {
        texts.put(name, valueToken == JsonToken.VALUE_STRING ? parser.getText() : value(parser, valueToken).asText());
      }
    }
    return texts;
  }

  private static JsonNode value(JsonParser parser, JsonToken token) throws IOException {
    return switch (token) {
      case START_OBJECT -> object(parser);
      case START_ARRAY -> array(parser);
      case VALUE_STRING -> NODES.textNode(parser.getText());
      case VALUE_NUMBER_INT -> parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER
          ? NODES.numberNode(parser.getBigIntegerValue())
          : NODES.numberNode(parser.getLongValue());
      case VALUE_NUMBER_FLOAT -> NODES.numberNode(parser.getDoubleValue());
      case VALUE_TRUE -> NODES.booleanNode(true);
      case VALUE_FALSE -> NODES.booleanNode(false);
      case VALUE_NULL -> NODES.nullNode();
      default -> throw new JsonParseException(parser, "unexpected " + token);
    };
  }

  private static ObjectNode object(JsonParser parser) throws IOException {
    ObjectNode object = NODES.objectNode();
    for (JsonToken token = parser.nextToken(); token != JsonToken.END_OBJECT; token = parser.nextToken()) {
      String name = parser.currentName();
      JsonToken valueToken = parser.nextToken();
      if (ACCUMULABLES.equals(name)) {
        parser.skipChildren();
      } else {
        object.set(name, value(parser, valueToken));
      }
    }
    return object;
  }

  private static ArrayNode array(JsonParser parser) throws IOException {
    ArrayNode array = NODES.arrayNode();
    for (JsonToken token = parser.nextToken(); token != JsonToken.END_ARRAY; token = parser.nextToken()) {
      array.add(value(parser, token));
    }
    return array;
  }
}
