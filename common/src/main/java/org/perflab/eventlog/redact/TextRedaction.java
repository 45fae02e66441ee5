package org.perflab.eventlog.redact;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The free-text rules of {@link Redactor}: linear scans with precompiled patterns, no backtracking blow-up. */
final class TextRedaction {
  /** {@code scheme://user:password@}: the password runs to the last {@code @} of the authority. */
  private static final Pattern URI_PASSWORD =
      Pattern.compile("([A-Za-z][A-Za-z0-9+.\\-]*://[^\\s/?#@:]*):([^\\s/?#]+)@");

  private TextRedaction() {}

  static String redactUriPasswords(String text) {
    if (!text.contains("://")) {
      return text;
    }
    Matcher m = URI_PASSWORD.matcher(text);
    return m.find() ? m.replaceAll(r -> Matcher.quoteReplacement(r.group(1) + ":" + Redactor.REDACTED + "@")) : text;
  }

  /**
   * Replaces the value of each pair whose key contains a match of {@code keyPattern}. The scan is driven by the
   * pattern's matches, which are rare, and looks at the text around each one only.
   */
  static String redactPairs(String text, Pattern keyPattern) {
    Matcher m = keyPattern.matcher(text);
    StringBuilder out = null;
    int copied = 0;
    int from = 0;
    while (from < text.length() && m.find(from)) {
      if (!isKey(text, m.start(), m.end())) {
        from = m.start() + 1;
        continue;
      }
      int keyEnd = m.end();
      while (keyEnd < text.length() && isKeyChar(text.charAt(keyEnd))) {
        keyEnd++;
      }
      int[] value = valueAfterKey(text, keyEnd);
      if (value == null || text.startsWith(Redactor.REDACTED, value[0])) {
        from = Math.max(keyEnd, m.start() + 1);
        continue;
      }
      if (out == null) {
        out = new StringBuilder(text.length());
      }
      out.append(text, copied, value[0]).append(Redactor.REDACTED);
      copied = value[1];
      from = value[1];
    }
    return out == null ? text : out.append(text, copied, text.length()).toString();
  }

  /** The [start, end) of the value that follows a key ending at {@code keyEnd}, or null if no separator follows. */
  private static int[] valueAfterKey(String text, int keyEnd) {
    int i = keyEnd;
    if (i < text.length() && (text.charAt(i) == '"' || text.charAt(i) == '\'')) {
      i++; // the closing quote of a quoted key, as in JSON
    }
    int afterKey = i;
    i = skipSpaces(text, i);
    if (text.startsWith("->", i)) {
      i += 2;
    } else if (text.startsWith("=", i) || (text.startsWith(":", i) && !text.startsWith("://", i))) {
      i += 1;
    } else if (i == afterKey || i >= text.length() || (text.charAt(i) != '\'' && text.charAt(i) != '"')) {
      return null; // not a SQL option either, such as OPTIONS (password 'x')
    }
    i = skipSpaces(text, i);
    if (i >= text.length()) {
      return null;
    }
    char quote = text.charAt(i);
    if (quote == '"' || quote == '\'') {
      int close = text.indexOf(quote, i + 1);
      return new int[] {i + 1, close < 0 ? text.length() : close};
    }
    int end = i;
    while (end < text.length() && !isValueEnd(text.charAt(end))) {
      end++;
    }
    return end == i ? null : new int[] {i, end};
  }

  private static boolean isKey(String text, int start, int end) {
    for (int i = start; i < end; i++) {
      if (!isKeyChar(text.charAt(i))) {
        return false;
      }
    }
    return end > start;
  }

  private static int skipSpaces(String text, int i) {
    while (i < text.length() && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
      i++;
    }
    return i;
  }

  private static boolean isKeyChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '.' || c == '-';
  }

  private static boolean isValueEnd(char c) {
    return Character.isWhitespace(c) || c == ';' || c == '&' || c == ',' || c == ')' || c == ']' || c == '}'
        || c == '"' || c == '\'';
  }
}
