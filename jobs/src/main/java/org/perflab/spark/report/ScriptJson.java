package org.perflab.spark.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import gg.jte.TemplateOutput;
import gg.jte.Content;

/**
 * A value as JSON that is safe in the body of a {@code <script type="application/json">} element: besides JSON's own
 * escaping, {@code <}, {@code >}, {@code &}, U+2028 and U+2029 are written as {@code \}{@code uXXXX}, so no string of
 * the value (a log's application name, SQL, ...) can close the element, open a comment or start markup. JSON has these
 * characters only inside strings, where the escapes mean the same characters, so {@code JSON.parse} gives the value
 * back unchanged. This is the one place where the site writes text that the template engine does not escape itself.
 */
public final class ScriptJson implements Content {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final String json;

  private ScriptJson(String json) {
    this.json = json;
  }

  /** {@code value} (maps, lists, strings, numbers, booleans, null) as script-safe JSON. */
  public static ScriptJson of(Object value) {
    try {
      return new ScriptJson(escape(MAPPER.writeValueAsString(value)));
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("Cannot write chart data as JSON: " + e.getOriginalMessage(), e);
    }
  }

  static String escape(String json) {
    StringBuilder out = new StringBuilder(json.length() + 16);
    for (int i = 0; i < json.length(); i++) {
      char c = json.charAt(i);
      switch (c) {
        case '<' -> out.append("\\u003c");
        case '>' -> out.append("\\u003e");
        case '&' -> out.append("\\u0026");
        case '\u2028' -> out.append("\\u2028");
        case '\u2029' -> out.append("\\u2029");
        default -> out.append(c);
      }
    }
    return out.toString();
  }

  /** The escaped JSON text. */
  public String json() {
    return json;
  }

  @Override
  public void writeTo(TemplateOutput output) {
    output.writeContent(json);
  }

  @Override
  public String toString() {
    return json;
  }
}
