package org.perflab.spark.storage;

import java.util.HashMap;
import java.util.Map;
import org.apache.spark.sql.SparkSession;

/** Session settings changed for the length of one piece of work, then put back as they were. */
public final class SessionConf {
  private SessionConf() {}

  /** Work that may throw {@code E}. */
  @FunctionalInterface
  public interface Body<T, E extends Exception> {
    T call() throws E;
  }

  /**
   * Sets each of {@code settings} in the session unless the user set it when submitting (in the SparkContext's conf),
   * for as long as the session lasts or until set again. Returns the keys it set, each with its earlier session value
   * (null when it had none).
   */
  public static Map<String, String> setUnlessSubmitted(SparkSession spark, Map<String, String> settings) {
    Map<String, String> before = new HashMap<>();
    settings.forEach((key, value) -> {
      if (!spark.sparkContext().getConf().contains(key)) {
        before.put(key, spark.conf().get(key, null));
        spark.conf().set(key, value);
      }
    });
    return before;
  }

  /**
   * Runs {@code body} with each of {@code settings} set in the session unless the user set it when submitting
   * (in the SparkContext's conf), then restores each changed key to its earlier session value (or unsets it).
   */
  public static <T, E extends Exception> T unlessSet(SparkSession spark, Map<String, String> settings,
      Body<T, E> body) throws E {
    Map<String, String> before = setUnlessSubmitted(spark, settings);
    try {
      return body.call();
    } finally {
      before.forEach((key, value) -> {
        if (value == null) {
          spark.conf().unset(key);
        } else {
          spark.conf().set(key, value);
        }
      });
    }
  }
}
