package org.perflab.jobs.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.ConsoleAppender;
import org.apache.logging.log4j.core.appender.FileAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.layout.PatternLayout;

/**
 * Where a job's log lines go: everything (Spark's INFO and WARN included) to a log file, and only PerfLab's own
 * progress to the console; with {@code --verbose} the console keeps everything as well. Under {@code submit/perflab}
 * with the bundled runtime, its log4j2.properties does this and names the file in {@code PERFLAB_LOG_FILE}; under any
 * other {@code spark-submit} this class does it: the file is {@code $PERFLAB_LOG_DIR/perflab-<job>-<UTC time>.log},
 * or under {@code .perflab/logs/} in the working directory. Called once by {@code main}, before any Spark class logs.
 */
public final class ConsoleLogging {
  public static final String LOG_DIR_VARIABLE = "PERFLAB_LOG_DIR";
  private static final String PATTERN = "%d{yy/MM/dd HH:mm:ss} %p %c{1}: %m%n%ex";
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);
  private static Path logFile;

  private ConsoleLogging() {}

  /** The log file of this process, or null when logging was left as configured. */
  public static Path logFile() {
    return logFile;
  }

  /**
   * Adds the log file and, unless {@code verbose}, takes every logger but PerfLab's off the console. Leaves the
   * configuration alone when log4j2's core is not the logging backend; returns the file, or null then.
   */
  public static synchronized Path configure(String job, boolean verbose, Clock clock) {
    if (logFile != null) {
      return logFile;
    }
    String launcherFile = System.getenv(Failures.LOG_FILE_ENV);
    if (launcherFile != null && !launcherFile.isBlank()) {
      // submit/perflab's bundled log4j2.properties already writes this run's log there and keeps Spark off the console.
      logFile = Paths.get(launcherFile).toAbsolutePath();
      return logFile;
    }
    try {
      if (!(LogManager.getContext(false) instanceof LoggerContext context)) {
        return null;
      }
      String dir = System.getenv(LOG_DIR_VARIABLE);
      Path file = Paths.get(dir == null || dir.isBlank() ? ".perflab/logs" : dir)
          .resolve("perflab-" + job + "-" + STAMP.format(clock.instant()) + ".log").toAbsolutePath();
      Files.createDirectories(file.getParent());
      apply(context, file, verbose);
      logFile = file;
      return file;
    } catch (java.io.IOException | RuntimeException | LinkageError e) {
      System.err.println("Cannot write the log file: " + e.getMessage() + " (logging to the console)");
      return null;
    }
  }

  private static void apply(LoggerContext context, Path file, boolean verbose) {
    Configuration config = context.getConfiguration();
    PatternLayout layout = PatternLayout.newBuilder().withPattern(PATTERN).withConfiguration(config).build();
    // Created on the first line logged, so a run that logs nothing (--help, --version) leaves no file.
    Appender fileAppender = FileAppender.newBuilder().setName("perflab-file").withFileName(file.toString())
        .withCreateOnDemand(true).setLayout(layout).setConfiguration(config).build();
    fileAppender.start();
    config.addAppender(fileAppender);
    LoggerConfig root = config.getRootLogger();
    List<Appender> consoles = consoleAppenders(root.getAppenders());
    if (consoles.isEmpty()) {
      Appender console = ConsoleAppender.newBuilder().setName("perflab-console")
          .setTarget(ConsoleAppender.Target.SYSTEM_ERR).setLayout(layout).setConfiguration(config).build();
      console.start();
      consoles = List.of(console);
    }
    if (root.getLevel().isMoreSpecificThan(Level.INFO)) {
      root.setLevel(Level.INFO);
    }
    root.addAppender(fileAppender, Level.INFO, null);
    if (!verbose) {
      consoles.forEach(console -> root.removeAppender(console.getName()));
      LoggerConfig perflab = perflabLogger(config);
      consoles.forEach(console -> perflab.addAppender(console, Level.INFO, null));
    }
    context.updateLoggers();
  }

  private static LoggerConfig perflabLogger(Configuration config) {
    LoggerConfig existing = config.getLoggers().get("org.perflab");
    if (existing != null) {
      return existing;
    }
    LoggerConfig created = new LoggerConfig("org.perflab", Level.INFO, true);
    config.addLogger("org.perflab", created);
    return created;
  }

  private static List<Appender> consoleAppenders(Map<String, Appender> appenders) {
    List<Appender> consoles = new ArrayList<>();
    appenders.values().stream().filter(a -> a instanceof ConsoleAppender).forEach(consoles::add);
    return consoles;
  }
}
