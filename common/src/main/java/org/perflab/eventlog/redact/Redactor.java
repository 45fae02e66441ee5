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

  /**
   * Property keys and values, and key tokens of free text, seen: whether the pattern occurs in each. Most of a log's
   * environment (JVM system properties, class path entries) recurs in every log of a cluster, and searching the
   * pattern in each was 43 % of the parser's stack samples in an ingest of 1,000 logs; a lookup costs a hash.
   * Bounded (cleared when it holds this many: at most about 16 MB); only a cache, so not serialized.
   */
  private static final int MAX_CACHED_TEXTS = 1 << 14;
  /** Longer texts go to a second, smaller cache, so the first stays small. */
  private static final int MAX_CACHED_LENGTH = 512;
  /**
   * The long texts a log repeats from the one before (a few per log, such as {@code java.class.path} and the driver's
   * command line): up to this many of up to {@link #MAX_LONG_CACHED_LENGTH} characters, at most 32 MB. Hashing and
   * comparing one costs a fraction of searching it, which was 7 % of the parser's samples over small applications.
   */
  private static final int MAX_LONG_CACHED_TEXTS = 256;
  private static final int MAX_LONG_CACHED_LENGTH = 1 << 16;

  private final Pattern pattern;
  private transient volatile Map<String, Boolean> matchCache;
  private transient volatile Map<String, Boolean> longMatchCache;

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
    boolean secret = (key != null && matches(key)) || matches(value);
    return secret ? REDACTED : value;
  }

  /** Whether the pattern occurs in {@code text}, remembered for the texts seen most recently. */
  private boolean matches(String text) {
    if (text.length() > MAX_LONG_CACHED_LENGTH) {
      return pattern.matcher(text).find();
    }
    boolean isLong = text.length() > MAX_CACHED_LENGTH;
    Map<String, Boolean> cache = isLong ? longMatchCache : matchCache;
    if (cache == null) {
      cache = new ConcurrentHashMap<>();
      if (isLong) {
        longMatchCache = cache;
      } else {
        matchCache = cache;
      }
    }
    Boolean known = cache.get(text);
    if (known != null) {
      return known;
    }
    boolean secret = pattern.matcher(text).find();
    if (cache.size() >= (isLong ? MAX_LONG_CACHED_TEXTS : MAX_CACHED_TEXTS)) {
      cache.clear();
    }
    cache.put(text, secret);
    return secret;
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
    return TextRedaction.redactPairs(TextRedaction.redactUriPasswords(text), this::matches);
  }

  @Override
  public String toString() {
    return "Redactor(" + pattern.pattern() + ")";
  }
}
