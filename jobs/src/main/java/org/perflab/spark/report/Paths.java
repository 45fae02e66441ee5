package org.perflab.spark.report;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/** File names of the site's pages: made only of {@code [a-z0-9._-]}, whatever the log's strings hold. */
public final class Paths {
  private Paths() {}

  /** {@code text} lower-cased with every other character replaced by {@code -}, at most 40 characters. */
  public static String slug(String text) {
    String slug = text.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9._-]+", "-").replaceAll("^[.-]+", "");
    return slug.isEmpty() ? "x" : slug.substring(0, Math.min(40, slug.length()));
  }

  /** The page of a workload: its slug and 8 hex digits of the SHA-256 of its id, so two ids never share a page. */
  public static String workloadPage(String workloadId) {
    return "workloads/" + slug(workloadId) + "-" + hash(workloadId) + ".html";
  }

  private static String hash(String text) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 4);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("Cannot hash a workload id: no SHA-256 in this JVM", e);
    }
  }
}
