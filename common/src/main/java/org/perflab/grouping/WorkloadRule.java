package org.perflab.grouping;

import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The workload rule: which runs are runs of the same workload. Every PerfLab job that groups runs uses it
 * (docs/workloads.md, "Workload identity", has the rule with examples). In order:
 *
 * <ol>
 *   <li>PerfLab's {@code spark.perflab.workload} tag, trimmed, when present and not blank ({@link WorkloadSource#TAG});
 *   <li>else the value of the property named by {@code --workload-property} (HiBench's or the user's own tag), trimmed
 *       ({@link WorkloadSource#PROPERTY});
 *   <li>else the application name normalised by {@link #normalizeName(String)} ({@link WorkloadSource#NAME}).
 * </ol>
 *
 * <p>The data size is never part of the identity: Sort at 1 GB and at 10 GB is one workload. Sizes go to
 * {@link SizeClass} instead.
 */
public final class WorkloadRule {
  /** The id of an application whose name is blank, or holds nothing but ids, dates, numbers and sizes. */
  public static final String UNNAMED = "unnamed";

  private static final String MONTH =
      "(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?"
          + "|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";

  /** Removed in this order from the lower-cased name; each match becomes a separator. */
  private static final List<Pattern> REMOVED = List.of(
      // URIs and paths: hdfs://nn/data/x, s3a://bucket/key, file:/tmp/x, /user/me/in, ./x/y, ~/x, C:\x\y
      Pattern.compile("[a-z][a-z0-9+.-]*:/+\\S*"),
      Pattern.compile("(?<![\\p{L}\\p{N}])(?:\\.{0,2}|~)/\\S*"),
      Pattern.compile("\\b[a-z]:\\\\\\S*"),
      // UUIDs
      Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"),
      // Spark and YARN application, attempt, job and container ids: app-20161116163331-0000, local-1422981780767,
      // application_1553914137147_0018, attempt_1553914137147_0018_000001, spark-application-1422981780767
      Pattern.compile("\\b(?:spark-application|application|app|local|attempt|job|container)[-_]\\d[\\d_-]*"
          + "(?:[a-z]\\d*)?\\b"),
      // dates and times: 2024-01-31T10:30:00.123Z, 2024-01-31, 2024/01/31, 31.01.2024, 20240131T103000Z, 10:30:59
      Pattern.compile("\\d{4}[-/._]\\d{1,2}[-/._]\\d{1,2}(?:[t _]?\\d{1,2}[:.]?\\d{2}(?:[:.]?\\d{2}(?:[.,]\\d+)?)?"
          + "(?:z|[+-]\\d{2}:?\\d{2})?)?"),
      Pattern.compile("\\b\\d{1,2}[-/.]\\d{1,2}[-/.]\\d{2,4}\\b"),
      Pattern.compile("\\d{8}t\\d{4,6}(?:\\d+)?z?"),
      Pattern.compile("\\b\\d{1,2}:\\d{2}(?::\\d{2}(?:[.,]\\d+)?)?\\b"),
      Pattern.compile("\\b\\d{1,2}(?:st|nd|rd|th)?[ -]?" + MONTH + "\\b[ -,]*(?:\\d{4}|\\d{2}\\b)?"),
      Pattern.compile("\\b" + MONTH + "\\b[ -]?\\d{1,4}(?:(?:st|nd|rd|th)?,? \\d{4})?\\b"),
      // data sizes, with their unit: 10GB, 1.5 TiB, 512m, 1g, 100 bytes
      Pattern.compile("\\d+(?:\\.\\d+)?[ _-]?(?:[kmgtpe]i?b|[kmgtpe]|bytes?|b)\\b"),
      // hexadecimal ids of six or more digits with at least one digit and one letter: 3f9a1c, 0x1f2e3d4c
      Pattern.compile("\\b(?:0x)?(?=[0-9a-f]*\\d)(?=[0-9a-f]*[a-f])[0-9a-f]{6,}\\b"),
      // numbers of their own (42, 3.14, #7, v2 stays), and runs of four or more digits inside words (etl20240131)
      Pattern.compile("(?<![\\p{L}\\p{N}])\\d+(?:[.,]\\d+)*(?![\\p{L}\\p{N}])"),
      Pattern.compile("\\d{4,}"));

  private static final Pattern SEPARATORS = Pattern.compile("[^\\p{L}\\p{N}]+");

  /** Scale words that name a data size; dropped when they are the name's last word (perflab-sort-large). */
  private static final List<String> SCALE_WORDS =
      List.of("tiny", "small", "medium", "large", "huge", "gigantic", "bigdata");

  private WorkloadRule() {}

  /**
   * The workload of one application attempt.
   *
   * @param perflabTag {@code spark.perflab.workload}, or null
   * @param property the value of the {@code --workload-property} property, or null (also when no property is named)
   * @param appName the application name, or null
   */
  public static Workload identify(String perflabTag, String property, String appName) {
    if (perflabTag != null && !perflabTag.isBlank()) {
      return new Workload(perflabTag.strip(), WorkloadSource.TAG);
    }
    if (property != null && !property.isBlank()) {
      return new Workload(property.strip(), WorkloadSource.PROPERTY);
    }
    return new Workload(normalizeName(appName), WorkloadSource.NAME);
  }

  /**
   * The application name as a workload id: lower case; paths and URIs, UUIDs, Spark and YARN ids, dates, times,
   * sizes with units, hexadecimal ids and numbers removed; a trailing scale word (tiny, small, medium, large, huge,
   * gigantic, bigdata) removed; every run of other characters than letters and digits made one space; trimmed.
   * {@value #UNNAMED} when nothing is left. Digits inside words stay (word2vec, q19, log4j) unless four or more.
   */
  public static String normalizeName(String appName) {
    if (appName == null) {
      return UNNAMED;
    }
    String name = appName.toLowerCase(Locale.ROOT);
    for (Pattern removed : REMOVED) {
      name = removed.matcher(name).replaceAll(" ");
    }
    name = SEPARATORS.matcher(name).replaceAll(" ").strip();
    int lastSpace = name.lastIndexOf(' ');
    if (lastSpace > 0 && SCALE_WORDS.contains(name.substring(lastSpace + 1))) {
      name = name.substring(0, lastSpace);
    }
    return name.isEmpty() ? UNNAMED : name;
  }
}
