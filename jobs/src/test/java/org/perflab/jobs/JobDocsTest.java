package org.perflab.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * docs/jobs.md against the command line the build ships: one section per job, and every option of a job named in its
 * section, so that an option added to a job without its documentation fails the build. The options every job shares
 * ({@code --help}, {@code --version}, {@code --verbose}) are documented once, at the top.
 */
class JobDocsTest {
  private static final Path JOBS_DOC = Path.of("..", "docs", "jobs.md");
  private static final Set<String> SHARED_OPTIONS = Set.of("--help", "--version", "--verbose");
  private static final Pattern SECTION = Pattern.compile("(?m)^## (\\S+)$");

  @Test
  void everyJobHasASectionAndNoSectionNamesAJobThatDoesNotExist() throws IOException {
    Set<String> sections = new TreeSet<>();
    Matcher heading = SECTION.matcher(Files.readString(JOBS_DOC));
    while (heading.find()) {
      sections.add(heading.group(1));
    }

    assertThat(sections).isEqualTo(new TreeSet<>(jobs().keySet()));
  }

  @Test
  void everyOptionOfEveryJobIsNamedInItsSection() throws IOException {
    String doc = Files.readString(JOBS_DOC);
    List<String> undocumented = new ArrayList<>();
    jobs().forEach((job, command) -> {
      String section = section(doc, job);
      for (OptionSpec option : command.getCommandSpec().options()) {
        String name = option.longestName();
        if (!option.hidden() && !SHARED_OPTIONS.contains(name) && !section.contains("`" + name)) {
          undocumented.add(job + " " + name);
        }
      }
    });

    assertThat(jobs()).hasSizeGreaterThan(15);
    assertThat(undocumented).as("options missing from their job's section of docs/jobs.md").isEmpty();
  }

  @Test
  void theSharedOptionsAreDocumentedOnceBeforeTheJobs() throws IOException {
    String doc = Files.readString(JOBS_DOC);
    String preamble = doc.substring(0, doc.indexOf("\n## "));

    for (String option : SHARED_OPTIONS) {
      assertThat(preamble).as(option).containsAnyOf(option + "`", option + " ");
    }
  }

  /** The jobs of {@code perflab}, by name, without picocli's own {@code help}. */
  private static Map<String, CommandLine> jobs() {
    Map<String, CommandLine> jobs = new TreeMap<>(PerfLab.commandLine().getSubcommands());
    jobs.remove("help");
    return jobs;
  }

  /** The text of a job's section: from its heading to the next one. */
  private static String section(String doc, String job) {
    int start = doc.indexOf("\n## " + job + "\n");
    assertThat(start).as("section of " + job).isNotNegative();
    int end = doc.indexOf("\n## ", start + 1);
    return doc.substring(start, end < 0 ? doc.length() : end);
  }
}
