package org.perflab.spark.storage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A Delta table's commits read from its {@code _delta_log} directory with the Hadoop file system alone, no Spark and no
 * snapshot: which versions exist, and what each commit's {@code commitInfo} action says (its operation and
 * {@code operationMetrics}). The one reader of commit files for the night's bookkeeping and for tests.
 */
public final class DeltaCommits {
  private static final Pattern COMMIT = Pattern.compile("(\\d{20})\\.json");
  private static final ObjectMapper JSON = new ObjectMapper();

  private DeltaCommits() {}

  /** The commit file of {@code version} of the table at {@code table}. */
  public static Path commitFile(Path table, long version) {
    return new Path(table, "_delta_log/" + String.format("%020d.json", version));
  }

  /**
   * The version checksum file of {@code version} ({@code <version>.crc}: the Delta protocol's "Version Checksum File",
   * with the version's {@code numFiles} and {@code tableSizeBytes}), which Delta writes after each commit.
   */
  public static Path checksumFile(Path table, long version) {
    return new Path(table, "_delta_log/" + String.format("%020d.crc", version));
  }

  /**
   * The versions of the table's commit files, oldest first; empty when the table has no log. Versions removed by log
   * cleanup are not listed.
   */
  public static List<Long> versions(FileSystem fs, Path table) throws IOException {
    Path log = new Path(table, "_delta_log");
    List<Long> versions = new ArrayList<>();
    if (!fs.exists(log)) {
      return versions;
    }
    for (FileStatus file : fs.listStatus(log)) {
      Matcher commit = COMMIT.matcher(file.getPath().getName());
      if (commit.matches()) {
        versions.add(Long.parseLong(commit.group(1)));
      }
    }
    versions.sort(null);
    return versions;
  }

  /** A commit's {@code commitInfo} action; empty when the file records none, is gone or cannot be read. */
  public static Optional<JsonNode> commitInfo(FileSystem fs, Path commit) {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(fs.open(commit), StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        JsonNode info = JSON.readTree(line).get("commitInfo");
        if (info != null) {
          return Optional.of(info);
        }
      }
      return Optional.empty();
    } catch (IOException e) {
      return Optional.empty(); // removed by log cleanup, or unreadable: callers decide what that means
    }
  }

  /** The operation a commit names ({@code WRITE}, {@code OPTIMIZE}, ...); empty when it names none or is unreadable. */
  public static String operation(FileSystem fs, Path commit) {
    return commitInfo(fs, commit).map(info -> info.path("operation").asText("")).orElse("");
  }
}
