package org.perflab.changes;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JVM flags of a Java-options property ({@code spark.executor.extraJavaOptions} and the like) that act on a run's
 * time: {@code -XX} options (the collector, its pauses and regions, heap ratios, compilation) and the heap and stack
 * sizes ({@code -Xmx}, {@code -Xms}, {@code -Xmn}, {@code -Xss}); a class-data archive by its use, not its path
 * ({@code -XX:SharedArchiveFile=<file>}). System properties ({@code -D}, often paths and ids
 * of one run), module options ({@code --add-opens}) and flags that only log, dump or name files are left out, so that
 * two runs whose options differ only in those have the same flags.
 */
final class JvmFlags {
  private JvmFlags() {}

  /** What {@link #shown} reads for options that set no flag that acts on time. */
  static final String NONE = "(none)";

  /** The Java-options properties compared by their flags. */
  static final Pattern KEYS = Pattern.compile("spark\\.(driver|executor)\\.(extra|default)JavaOptions");

  private static final Pattern XX = Pattern.compile("-XX:([+-]?)([A-Za-z][A-Za-z0-9_]*)(=.*)?");
  private static final Pattern SIZES = Pattern.compile("-X(mx|ms|mn|ss)(.+)");
  /** -XX options that log, dump on a failure, name files or only allow other options: no effect on a run's time. */
  private static final Pattern NO_EFFECT = Pattern.compile(
      "Print.*|Log.*|Trace.*|HeapDump.*|ErrorFile|OnError|OnOutOfMemoryError|IgnoreUnrecognizedVMOptions"
          + "|Unlock(Diagnostic|Experimental)VMOptions|GCLogFile.*|NumberOfGCLogFiles|UseGCLogFileRotation"
          + "|FlightRecorder.*|StartFlightRecording.*");
  /** -XX options whose value is a file: a class-data archive used or dumped acts on start-up, its path does not. */
  private static final Pattern FILE_VALUED = Pattern.compile("SharedArchiveFile|ArchiveClassesAtExit");
  /** The options whose change acts on the executors' garbage collection and memory. */
  private static final Set<String> EXECUTOR_KEYS = Set.of("spark.executor.extraJavaOptions",
      "spark.executor.defaultJavaOptions");

  /** Whether {@code key} is a Java-options property. */
  static boolean isJavaOptions(String key) {
    return KEYS.matcher(key).matches();
  }

  /** Whether {@code key} sets the executors' JVM (its flags act on their GC), not the driver's. */
  static boolean isExecutors(String key) {
    return EXECUTOR_KEYS.contains(key);
  }

  /**
   * The flags of {@code options} that act on time, by name ({@code UseG1GC}, {@code Xmx}), each the last token that
   * sets it ({@code -XX:+UseG1GC}), as the JVM reads them; empty for null.
   */
  static Map<String, String> of(String options) {
    Map<String, String> flags = new TreeMap<>();
    if (options == null) {
      return flags;
    }
    for (String token : tokens(options)) {
      Matcher xx = XX.matcher(token);
      if (xx.matches()) {
        String name = xx.group(2);
        if (FILE_VALUED.matcher(name).matches()) {
          flags.put(name, "-XX:" + name + "=<file>");
        } else if (!NO_EFFECT.matcher(name).matches()) {
          flags.put(name, token);
        }
        continue;
      }
      Matcher size = SIZES.matcher(token);
      if (size.matches()) {
        flags.put("X" + size.group(1), "-X" + size.group(1) + size.group(2).toLowerCase(java.util.Locale.ROOT));
      }
    }
    return flags;
  }

  /** The flags of {@code options} as one line in name order; {@link #NONE} when it sets none; null for null. */
  static String shown(String options) {
    if (options == null) {
      return null;
    }
    Map<String, String> flags = of(options);
    return flags.isEmpty() ? NONE : String.join(" ", flags.values());
  }

  /** Whitespace-separated tokens; a quoted span ('...' or "...") stays in its token, without its quotes. */
  static List<String> tokens(String options) {
    List<String> out = new ArrayList<>();
    StringBuilder token = new StringBuilder();
    char quote = 0;
    boolean inToken = false;
    for (int i = 0; i < options.length(); i++) {
      char c = options.charAt(i);
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        } else {
          token.append(c);
        }
      } else if (c == '\'' || c == '"') {
        quote = c;
        inToken = true;
      } else if (Character.isWhitespace(c)) {
        if (inToken) {
          out.add(token.toString());
          token.setLength(0);
          inToken = false;
        }
      } else {
        token.append(c);
        inToken = true;
      }
    }
    if (inToken) {
      out.add(token.toString());
    }
    return out;
  }
}
