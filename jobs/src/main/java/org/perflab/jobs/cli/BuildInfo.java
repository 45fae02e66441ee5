package org.perflab.jobs.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import picocli.CommandLine;

/**
 * PerfLab's version and git commit, filtered into {@code perflab-build.properties} at build time, and the Spark and
 * Delta Lake versions on the classpath. Reading them starts nothing: no SparkContext, no session.
 *
 * @param version PerfLab's Maven version
 * @param gitCommit the abbreviated commit PerfLab was built from
 * @param sparkVersion the Spark on the classpath; else the one PerfLab was built against, marked so
 * @param deltaVersion the Delta Lake on the classpath; else the one PerfLab was built against, marked so
 */
public record BuildInfo(String version, String gitCommit, String sparkVersion, String deltaVersion) {
  private static final String NOT_ON_CLASSPATH = " (built against; not on the classpath)";

  public static BuildInfo current() {
    Properties properties = new Properties();
    try (InputStream in = BuildInfo.class.getResourceAsStream("/perflab-build.properties")) {
      if (in != null) {
        properties.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new BuildInfo(
        properties.getProperty("version", "unknown"),
        properties.getProperty("git.commit", "unknown"),
        scalaPackageConstant("org.apache.spark.package$", "SPARK_VERSION")
            .orElse(properties.getProperty("spark.version", "unknown") + NOT_ON_CLASSPATH),
        scalaPackageConstant("io.delta.package$", "VERSION")
            .orElse(properties.getProperty("delta.version", "unknown") + NOT_ON_CLASSPATH));
  }

  /** What {@code --version} prints, one line each. */
  public List<String> lines() {
    return List.of("PerfLab " + version + " (git commit " + gitCommit + ")", "Spark " + sparkVersion,
        "Delta Lake " + deltaVersion);
  }

  /**
   * A string constant of a Scala package object ({@code org.apache.spark.SPARK_VERSION}, {@code io.delta.VERSION}),
   * read from the jar on the classpath; empty when the library is absent. Loading these objects only reads a
   * properties file or a literal.
   */
  public static Optional<String> scalaPackageConstant(String className, String accessor) {
    try {
      Class<?> type = Class.forName(className, true, BuildInfo.class.getClassLoader());
      Object value = type.getMethod(accessor).invoke(type.getField("MODULE$").get(null));
      return value instanceof String s && !s.isBlank() ? Optional.of(s) : Optional.empty();
    } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** Lets {@code perflab --version} and {@code perflab <job> --version} print the build. */
  public static final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return current().lines().toArray(String[]::new);
    }
  }
}
