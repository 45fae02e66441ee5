package org.perflab.spark.ingest;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * {@code <output>/_perflab_run.json}: which PerfLab, with which options, redaction pattern and table schema version,
 * produced the tables. The leading underscore keeps Spark from reading it as data.
 */
public final class RunManifest {
  /** Bumped whenever the tables change incompatibly: 2 is Delta Lake tables with run_id; 1 was per-log Parquet. */
  public static final int SCHEMA_VERSION = 2;

  public static final String FILE_NAME = "_perflab_run.json";

  private RunManifest() {}

  public static void write(FileSystem fs, Path root, Map<String, Object> manifest) throws IOException {
    ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    try (OutputStream out = fs.create(new Path(root, FILE_NAME), true)) {
      mapper.writeValue(out, manifest);
    }
  }
}
