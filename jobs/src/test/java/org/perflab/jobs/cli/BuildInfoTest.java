package org.perflab.jobs.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The versions --version prints come from the jars on the classpath, else from the build. */
class BuildInfoTest {
  @Test
  void sparkAndDeltaVersionsAreReadFromTheirJars() throws Exception {
    Properties build = new Properties();
    try (InputStream in = BuildInfo.class.getResourceAsStream("/perflab-build.properties")) {
      build.load(in);
    }
    BuildInfo info = BuildInfo.current();

    // Tests run on the Spark and Delta the build names, so the jars and the build agree.
    assertThat(info.sparkVersion()).isEqualTo(build.getProperty("spark.version")).matches("\\d+\\.\\d+\\.\\d+.*");
    assertThat(info.deltaVersion()).isEqualTo(build.getProperty("delta.version")).matches("\\d+\\.\\d+\\.\\d+.*");
    assertThat(info.version()).isEqualTo(build.getProperty("version")).doesNotContain("${");
  }

  @Test
  void aLibraryNotOnTheClasspathHasNoVersion() {
    assertThat(BuildInfo.scalaPackageConstant("org.example.absent.package$", "VERSION")).isEmpty();
    assertThat(BuildInfo.scalaPackageConstant("io.delta.package$", "VERSION")).isPresent();
  }
}
