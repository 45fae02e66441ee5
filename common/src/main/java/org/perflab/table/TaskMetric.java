package org.perflab.table;

/**
 * The task metrics Spark logs in a task-end event's {@code "Task Metrics"}, with the JSON section and field that hold
 * each one and the unit Spark logs it in. The {@code tasks} table has one column per metric; the {@code stages} table
 * sums them over task-end events the way Spark's {@code AppStatusListener} does.
 */
public enum TaskMetric {
  EXECUTOR_DESERIALIZE_TIME("executor_deserialize_time_ms", Section.TASK, "Executor Deserialize Time", "ms"),
  EXECUTOR_DESERIALIZE_CPU_TIME("executor_deserialize_cpu_time_ns", Section.TASK, "Executor Deserialize CPU Time", "ns"),
  EXECUTOR_RUN_TIME("executor_run_time_ms", Section.TASK, "Executor Run Time", "ms"),
  EXECUTOR_CPU_TIME("executor_cpu_time_ns", Section.TASK, "Executor CPU Time", "ns"),
  RESULT_SIZE("result_size_bytes", Section.TASK, "Result Size", "bytes"),
  JVM_GC_TIME("jvm_gc_time_ms", Section.TASK, "JVM GC Time", "ms"),
  RESULT_SERIALIZATION_TIME("result_serialization_time_ms", Section.TASK, "Result Serialization Time", "ms"),
  MEMORY_SPILLED("memory_spilled_bytes", Section.TASK, "Memory Bytes Spilled", "bytes"),
  DISK_SPILLED("disk_spilled_bytes", Section.TASK, "Disk Bytes Spilled", "bytes"),
  PEAK_EXECUTION_MEMORY("peak_execution_memory_bytes", Section.TASK, "Peak Execution Memory", "bytes"),
  INPUT_BYTES("input_bytes", Section.INPUT, "Bytes Read", "bytes"),
  INPUT_RECORDS("input_records", Section.INPUT, "Records Read", "records"),
  OUTPUT_BYTES("output_bytes", Section.OUTPUT, "Bytes Written", "bytes"),
  OUTPUT_RECORDS("output_records", Section.OUTPUT, "Records Written", "records"),
  SHUFFLE_REMOTE_BLOCKS_FETCHED("shuffle_remote_blocks_fetched", Section.SHUFFLE_READ, "Remote Blocks Fetched", "blocks"),
  SHUFFLE_LOCAL_BLOCKS_FETCHED("shuffle_local_blocks_fetched", Section.SHUFFLE_READ, "Local Blocks Fetched", "blocks"),
  SHUFFLE_FETCH_WAIT_TIME("shuffle_fetch_wait_time_ms", Section.SHUFFLE_READ, "Fetch Wait Time", "ms"),
  SHUFFLE_REMOTE_BYTES_READ("shuffle_remote_read_bytes", Section.SHUFFLE_READ, "Remote Bytes Read", "bytes"),
  SHUFFLE_REMOTE_BYTES_READ_TO_DISK(
      "shuffle_remote_read_to_disk_bytes", Section.SHUFFLE_READ, "Remote Bytes Read To Disk", "bytes"),
  SHUFFLE_LOCAL_BYTES_READ("shuffle_local_read_bytes", Section.SHUFFLE_READ, "Local Bytes Read", "bytes"),
  SHUFFLE_RECORDS_READ("shuffle_read_records", Section.SHUFFLE_READ, "Total Records Read", "records"),
  SHUFFLE_REMOTE_REQS_DURATION(
      "shuffle_remote_requests_duration_ms", Section.SHUFFLE_READ, "Remote Requests Duration", "ms"),
  SHUFFLE_CORRUPT_MERGED_BLOCK_CHUNKS(
      "shuffle_corrupt_merged_block_chunks", Section.SHUFFLE_PUSH_READ, "Corrupt Merged Block Chunks", "chunks"),
  SHUFFLE_MERGED_FETCH_FALLBACK_COUNT(
      "shuffle_merged_fetch_fallback_count", Section.SHUFFLE_PUSH_READ, "Merged Fetch Fallback Count", "count"),
  SHUFFLE_MERGED_REMOTE_BLOCKS_FETCHED(
      "shuffle_merged_remote_blocks_fetched", Section.SHUFFLE_PUSH_READ, "Merged Remote Blocks Fetched", "blocks"),
  SHUFFLE_MERGED_LOCAL_BLOCKS_FETCHED(
      "shuffle_merged_local_blocks_fetched", Section.SHUFFLE_PUSH_READ, "Merged Local Blocks Fetched", "blocks"),
  SHUFFLE_MERGED_REMOTE_CHUNKS_FETCHED(
      "shuffle_merged_remote_chunks_fetched", Section.SHUFFLE_PUSH_READ, "Merged Remote Chunks Fetched", "chunks"),
  SHUFFLE_MERGED_LOCAL_CHUNKS_FETCHED(
      "shuffle_merged_local_chunks_fetched", Section.SHUFFLE_PUSH_READ, "Merged Local Chunks Fetched", "chunks"),
  SHUFFLE_MERGED_REMOTE_BYTES_READ(
      "shuffle_merged_remote_read_bytes", Section.SHUFFLE_PUSH_READ, "Merged Remote Bytes Read", "bytes"),
  SHUFFLE_MERGED_LOCAL_BYTES_READ(
      "shuffle_merged_local_read_bytes", Section.SHUFFLE_PUSH_READ, "Merged Local Bytes Read", "bytes"),
  SHUFFLE_MERGED_REMOTE_REQS_DURATION(
      "shuffle_merged_remote_requests_duration_ms", Section.SHUFFLE_PUSH_READ, "Merged Remote Requests Duration", "ms"),
  SHUFFLE_WRITE_BYTES("shuffle_write_bytes", Section.SHUFFLE_WRITE, "Shuffle Bytes Written", "bytes"),
  SHUFFLE_WRITE_TIME("shuffle_write_time_ns", Section.SHUFFLE_WRITE, "Shuffle Write Time", "ns"),
  SHUFFLE_WRITE_RECORDS("shuffle_write_records", Section.SHUFFLE_WRITE, "Shuffle Records Written", "records");

  /** Where in {@code "Task Metrics"} a metric sits. */
  public enum Section {
    TASK(null),
    INPUT("Input Metrics"),
    OUTPUT("Output Metrics"),
    SHUFFLE_READ("Shuffle Read Metrics"),
    /** Nested inside {@code "Shuffle Read Metrics"} since Spark 3.2. */
    SHUFFLE_PUSH_READ("Push Based Shuffle"),
    SHUFFLE_WRITE("Shuffle Write Metrics");

    private final String jsonField;

    Section(String jsonField) {
      this.jsonField = jsonField;
    }

    /** The JSON object holding this section, or null for the top level of {@code "Task Metrics"}. */
    public String jsonField() {
      return jsonField;
    }
  }

  private final String column;
  private final Section section;
  private final String jsonField;
  private final String unit;

  TaskMetric(String column, Section section, String jsonField, String unit) {
    this.column = column;
    this.section = section;
    this.jsonField = jsonField;
    this.unit = unit;
  }

  public String column() {
    return column;
  }

  public Section section() {
    return section;
  }

  public String jsonField() {
    return jsonField;
  }

  public String unit() {
    return unit;
  }

  /** The column of this metric; null where the log's Spark version does not record it. */
  Column asColumn(String meaning) {
    return Column.int64(column, unit, meaning + " Spark's \"" + jsonField + "\"; null when not logged.");
  }
}
