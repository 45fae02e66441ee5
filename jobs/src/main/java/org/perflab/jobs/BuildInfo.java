package org.perflab.jobs;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine;

/** PerfLab's version and git commit, filtered into {@code perflab-build.properties} at build time. */
public record BuildInfo(String version, String gitCommit) {

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
        properties.getProperty("version", "unknown"), properties.getProperty("git.commit", "unknown"));
  }

  /** Lets {@code perflab --version} print the build. */
  public static final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      BuildInfo info = current();
      return new String[] {"PerfLab " + info.version() + " (" + info.gitCommit() + ")"};
    }
  }
}
