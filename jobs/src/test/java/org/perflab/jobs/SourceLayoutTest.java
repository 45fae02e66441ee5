package org.perflab.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The layout rules of the main sources (README, "Layout"): a package lives in one module only, as Iceberg keeps
 * {@code org.apache.iceberg.actions} and {@code org.apache.iceberg.spark.actions} apart, and a simple class name means
 * one thing across both modules. Read from the source trees of {@code common} and {@code jobs}; the test runs in the
 * {@code jobs} module's directory.
 */
class SourceLayoutTest {
  private static final Path JOBS = Path.of("src/main/java");
  private static final Path COMMON = Path.of("../common/src/main/java");

  @Test
  void noPackageLivesInBothModules() {
    Set<String> shared = new TreeSet<>(packages(COMMON));
    shared.retainAll(packages(JOBS));
    assertThat(packages(COMMON)).as("common's packages").isNotEmpty();
    assertThat(packages(JOBS)).as("jobs' packages").isNotEmpty();
    assertThat(shared).as("packages with sources in both common and jobs").isEmpty();
  }

  @Test
  void noSimpleClassNameIsDeclaredTwice() {
    Map<String, List<String>> byName = Stream.concat(sources(COMMON).stream(), sources(JOBS).stream())
        .collect(Collectors.groupingBy(p -> p.getFileName().toString().replace(".java", ""), TreeMap::new,
            Collectors.mapping(Path::toString, Collectors.toList())));
    assertThat(byName).as("top-level classes").hasSizeGreaterThan(100);
    assertThat(byName.entrySet().stream().filter(e -> e.getValue().size() > 1 && !e.getKey().equals("package-info"))
        .map(e -> e.getKey() + " " + e.getValue()).toList())
        .as("simple class names declared in more than one file").isEmpty();
  }

  private static Set<String> packages(Path root) {
    return sources(root).stream().map(p -> root.relativize(p.getParent()).toString().replace('/', '.'))
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private static List<Path> sources(Path root) {
    assertThat(root).as("source root, from the jobs module's directory").isDirectory();
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(p -> p.toString().endsWith(".java")).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
