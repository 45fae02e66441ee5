package org.perflab.spark.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SiteUploadTest {
  @TempDir
  Path dir;

  @Test
  void everyFileArrivesWithItsContentAtItsRelativePathWhenManyAreCopiedAtOnce() throws IOException {
    // More files than copies at once, in nested directories, as a report's pages, data and assets are.
    Path local = Files.createDirectories(dir.resolve("local"));
    List<String> written = new ArrayList<>();
    for (int i = 0; i < 5 * Site.UPLOADS; i++) {
      String relative = (i % 3 == 0 ? "" : i % 3 == 1 ? "apps/" : "workloads/w" + i % 2 + "/") + "page-" + i + ".html";
      Path file = local.resolve(relative);
      Files.createDirectories(file.getParent());
      Files.writeString(file, "page " + i, StandardCharsets.UTF_8);
      written.add(relative);
    }
    FileSystem fs = FileSystem.getLocal(new Configuration()).getRawFileSystem();
    Path target = dir.resolve("out/report-staging");

    Site.upload(fs, local, new org.apache.hadoop.fs.Path(target.toUri()));

    List<String> copied;
    try (Stream<Path> files = Files.walk(target)) {
      copied = files.filter(Files::isRegularFile).map(f -> target.relativize(f).toString()).sorted().toList();
    }
    assertThat(copied).containsExactlyInAnyOrderElementsOf(written);
    for (String relative : written) {
      assertThat(Files.readString(target.resolve(relative), StandardCharsets.UTF_8))
          .isEqualTo(Files.readString(local.resolve(relative), StandardCharsets.UTF_8));
    }
  }
}
