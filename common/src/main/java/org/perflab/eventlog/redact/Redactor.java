package org.perflab.eventlog.redact;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.perflab.errors.BadInputException;

/**
 * Removes secrets from event-log content before anything is written. Immutable and serializable, so one instance
 * ships to every executor.
 *
 * <p>A property is redacted whole when its key or its value matches the pattern, as Spark's
 * {@code spark.redaction.regex} does. Free text (plans, descriptions, command lines, failure messages) keeps its shape:
 * only the values of {@code key=value}, {@code key -> value}, {@code key: value} and {@code "key":"value"} pairs whose
 * key matches, and the passwords of {@code scheme://user:password@host} URIs, become {@link #REDACTED}.
 */
public final class Redactor implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Spark's replacement text for a redacted value. */
  public static final String REDACTED = "*********(redacted)";

  /**
   * Spark 4's default {@code (?i)secret|password|token|access[.]?key}, plus Azure's {@code account[.]key},
   * {@code credential}, {@code passwd}, and URIs that carry a password ({@code ://user:password@}).
   */
  public static final String DEFAULT_PATTERN =
      "(?i)secret|password|passwd|token|access[.]?key|account[.]key|credential|://[^/@\\s]*:[^/@\\s]*@";

  /** Key tokens seen in free text: whether each is secret. Bounded; only a cache, so not serialized. */
  private static final int MAX_CACHED_KEYS = 1 << 16;

  private final Pattern pattern;
  private transient volatile Map<String, Boolean> secretKeyCache;

  /**
   * @param regex a Java regular expression, searched (not matched whole) in keys and values
   * @throws BadInputException when the expression does not compile
   */
  public Redactor(String regex) {
    try {
      this.pattern = Pattern.compile(regex);
    } catch (PatternSyntaxException | NullPointerException e) {
      throw new BadInputException("Cannot use the redaction pattern: it is not a valid regular expression ("
          + regex + ")", e);
    }
  }

  /** A redactor with {@link #DEFAULT_PATTERN}. */
  public static Redactor defaults() {
    return new Redactor(DEFAULT_PATTERN);
  }

  /** The regular expression in use, for the run manifest. */
  public String pattern() {
    return pattern.pattern();
  }

  /** {@link #REDACTED} when the key or the value matches the pattern, else the value (null stays null). */
  public String redact(String key, String value) {
    if (value == null) {
      return null;
    }
    boolean secret = (key != null && pattern.matcher(key).find()) || pattern.matcher(value).find();
    return secret ? REDACTED : value;
  }

  /** A new map, in the same order, with every value passed through {@link #redact(String, String)}. */
  public Map<String, String> redactAll(Map<String, String> properties) {
    Map<String, String> result = new LinkedHashMap<>();
    properties.forEach((key, value) -> result.put(key, redact(key, value)));
    return result;
  }

  /** Free text with the secrets it carries replaced by {@link #REDACTED}; null stays null. */
  public String redactText(String text) {
    if (text == null || text.isEmpty()) {
      return text;
    }
    return TextRedaction.redactPairs(TextRedaction.redactUriPasswords(text), this::isSecretKey);
  }

  private boolean isSecretKey(String key) {
    Map<String, Boolean> cache = secretKeyCache;
    if (cache == null) {
      cache = new ConcurrentHashMap<>();
      secretKeyCache = cache;
    }
    Boolean known = cache.get(key);
    if (known != null) {
      return known;
    }
    boolean secret = pattern.matcher(key).find();
    if (cache.size() < MAX_CACHED_KEYS) {
      cache.put(key, secret);
    }
    return secret;
  }

  @Override
  public String toString() {
    return "Redactor(" + pattern.pattern() + ")";
  }
}
