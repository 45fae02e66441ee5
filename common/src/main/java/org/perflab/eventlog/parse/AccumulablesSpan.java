package org.perflab.eventlog.parse;

/**
 * Finds the {@code "Accumulables":[...]} array of a task event's text without tokenising it: a scan for the
 * matching bracket that skips string contents (quotes and escapes included).
 */
final class AccumulablesSpan {
  private static final String KEY = "\"Accumulables\":";

  private AccumulablesSpan() {}

  /**
   * The start (the {@code '['}) and end (just past the {@code ']'}) of the first accumulables array, or null when
   * there is none or its brackets do not balance (the JSON parser then reports the line).
   */
  static int[] find(String line) {
    int key = line.indexOf(KEY);
    if (key < 0) {
      return null;
    }
    int start = key + KEY.length();
    while (start < line.length() && Character.isWhitespace(line.charAt(start))) {
      start++;
    }
    if (start >= line.length() || line.charAt(start) != '[') {
      return null;
    }
    int depth = 0;
    boolean inString = false;
    for (int i = start; i < line.length(); i++) {
      char c = line.charAt(i);
      if (inString) {
        if (c == '\\') {
          i++;
        } else if (c == '"') {
          inString = false;
        }
      } else if (c == '"') {
        inString = true;
      } else if (c == '[' || c == '{') {
        depth++;
      } else if (c == ']' || c == '}') {
        depth--;
        if (depth == 0) {
          return c == ']' ? new int[] {start, i + 1} : null;
        }
      }
    }
    return null;
  }
}
