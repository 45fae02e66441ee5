package org.perflab.eventlog.redact;

import java.util.function.Predicate;

/**
 * The free-text rules of {@link Redactor}. Both are single forward scans over the text: the regular expression only
 * ever sees a short key token, so a long plan string costs time linear in its length.
 */
final class TextRedaction {
  private TextRedaction() {}

  /** {@code scheme://user:password@host}: the password runs to the last {@code @} of the authority. */
  static String redactUriPasswords(String text) {
    int from = text.indexOf("://");
    if (from < 0) {
      return text;
    }
    StringBuilder out = null;
    int copied = 0;
    while (from >= 0) {
      int colon = from + 3;
      while (colon < text.length() && !isAuthorityEnd(text.charAt(colon)) && text.charAt(colon) != '@'
          && text.charAt(colon) != ':') {
        colon++;
      }
      int end = colon;
      while (end < text.length() && !isAuthorityEnd(text.charAt(end))) {
        end++;
      }
      int at = end - 1;
      while (at > colon && text.charAt(at) != '@') {
        at--;
      }
      boolean hasPassword = colon < end && text.charAt(colon) == ':' && at > colon + 1;
      if (hasPassword && !text.startsWith(Redactor.REDACTED + "@", colon + 1)) {
        out = out == null ? new StringBuilder(text.length()) : out;
        out.append(text, copied, colon + 1).append(Redactor.REDACTED);
        copied = at;
      }
      from = text.indexOf("://", Math.max(end, from + 3));
    }
    return out == null ? text : out.append(text, copied, text.length()).toString();
  }

  /**
   * Replaces the value of each {@code key=value}, {@code key -> value}, {@code key: value}, {@code "key":"value"} or
   * {@code key 'value'} pair whose key token (letters, digits, {@code _ . -}) is secret.
   */
  static String redactPairs(String text, Predicate<String> isSecretKey) {
    StringBuilder out = null;
    int copied = 0;
    for (int i = 0; i < text.length(); i++) {
      int valueStart = valueStartAfterSeparator(text, i);
      if (valueStart < 0 || valueStart >= text.length() || text.startsWith(Redactor.REDACTED, valueStart)) {
        continue;
      }
      String key = keyBefore(text, i);
      if (key.isEmpty() || !isSecretKey.test(key)) {
        continue;
      }
      int valueEnd = valueEnd(text, valueStart);
      if (valueEnd > valueStart && valueStart >= copied) {
        out = out == null ? new StringBuilder(text.length()) : out;
        out.append(text, copied, valueStart).append(Redactor.REDACTED);
        copied = valueEnd;
        i = valueEnd;
      }
    }
    return out == null ? text : out.append(text, copied, text.length()).toString();
  }

  /**
   * When a separator starts at {@code i} ({@code =}, {@code ->}, {@code :} but not {@code ://}, or a quote after
   * blanks), where the value after it starts (a quoted value starts after its quote); else -1.
   */
  private static int valueStartAfterSeparator(String text, int i) {
    char c = text.charAt(i);
    int next;
    if (c == '=' || (c == ':' && !text.startsWith("://", i))) {
      next = i + 1;
    } else if (c == '-' && text.startsWith("->", i)) {
      next = i + 2;
    } else if ((c == '\'' || c == '"') && i > 0 && isBlank(text.charAt(i - 1))) {
      return i + 1; // SQL options: OPTIONS (password 'x')
    } else {
      return -1;
    }
    next = skipBlanks(text, next);
    if (next < text.length() && (text.charAt(next) == '"' || text.charAt(next) == '\'')) {
      next++;
    }
    return next;
  }

  /** The key token ending before the separator at {@code i}, past blanks and one closing quote. */
  private static String keyBefore(String text, int i) {
    int end = i;
    while (end > 0 && isBlank(text.charAt(end - 1))) {
      end--;
    }
    if (end > 0 && (text.charAt(end - 1) == '"' || text.charAt(end - 1) == '\'') && text.charAt(i) != '"'
        && text.charAt(i) != '\'') {
      end--;
    }
    int start = end;
    while (start > 0 && isKeyChar(text.charAt(start - 1))) {
      start--;
    }
    return text.substring(start, end);
  }

  /** The end of the value starting at {@code start}: its closing quote, or the first delimiter. */
  private static int valueEnd(String text, int start) {
    char opening = start > 0 ? text.charAt(start - 1) : ' ';
    if (opening == '"' || opening == '\'') {
      int close = text.indexOf(opening, start);
      return close < 0 ? text.length() : close;
    }
    int end = start;
    while (end < text.length() && !isValueEnd(text.charAt(end))) {
      end++;
    }
    return end;
  }

  private static int skipBlanks(String text, int i) {
    while (i < text.length() && isBlank(text.charAt(i))) {
      i++;
    }
    return i;
  }

  private static boolean isBlank(char c) {
    return c == ' ' || c == '\t';
  }

  private static boolean isKeyChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '.' || c == '-';
  }

  private static boolean isAuthorityEnd(char c) {
    return Character.isWhitespace(c) || c == '/' || c == '?' || c == '#' || c == '"' || c == '\'';
  }

  private static boolean isValueEnd(char c) {
    return Character.isWhitespace(c) || c == ';' || c == '&' || c == ',' || c == ')' || c == ']' || c == '}'
        || c == '"' || c == '\'';
  }
}
