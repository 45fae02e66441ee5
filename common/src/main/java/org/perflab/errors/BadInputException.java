package org.perflab.errors;

/**
 * Input that PerfLab cannot use: a bad option, a path that matches nothing, a malformed model or grid file.
 * Entry points map it to exit code 2. Messages read "Cannot &lt;do X&gt;: &lt;reason&gt; (&lt;value or valid range&gt;)".
 */
public class BadInputException extends RuntimeException {
  public BadInputException(String message) {
    super(message);
  }

  public BadInputException(String message, Throwable cause) {
    super(message, cause);
  }

  /** Throws a {@code BadInputException} with the formatted message unless {@code condition} holds. */
  public static void require(boolean condition, String format, Object... args) {
    if (!condition) {
      throw new BadInputException(String.format(format, args));
    }
  }
}
