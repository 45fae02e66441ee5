package org.perflab.plugin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;

/** One JSON object per line, fields in the order given. */
final class JsonLines {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private JsonLines() {}

  /** The fields as one JSON object, without a line break. */
  static String of(Map<String, ?> fields) {
    try {
      return MAPPER.writeValueAsString(fields);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Cannot write a telemetry record: " + e.getOriginalMessage(), e);
    }
  }
}
