package org.perflab.fs;

import java.util.Map;

/**
 * The Hadoop settings that make {@code file:} paths use {@link PosixLocalFileSystem} (through the FileSystem API) and
 * {@link PosixLocalFs} (through FileContext, which Delta's log store uses to commit), both Hadoop's local file system
 * but without a child process per permission set or per link check.
 */
public final class LocalFileSystems {
  /** The FileSystem class of the {@code file} scheme. */
  public static final String FILE_SYSTEM_KEY = "fs.file.impl";
  /** The AbstractFileSystem (FileContext) class of the {@code file} scheme. */
  public static final String ABSTRACT_FILE_SYSTEM_KEY = "fs.AbstractFileSystem.file.impl";

  private LocalFileSystems() {}

  /** {@link #FILE_SYSTEM_KEY} and {@link #ABSTRACT_FILE_SYSTEM_KEY} with PerfLab's classes, as Hadoop keys. */
  public static Map<String, String> hadoopSettings() {
    return Map.of(FILE_SYSTEM_KEY, PosixLocalFileSystem.class.getName(),
        ABSTRACT_FILE_SYSTEM_KEY, PosixLocalFs.class.getName());
  }
}
