package org.perflab.spark.report;

import gg.jte.ContentType;
import gg.jte.TemplateEngine;
import gg.jte.output.StringOutput;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.perflab.errors.Futures;
import org.perflab.spark.report.View.Page;
import org.perflab.spark.storage.TableStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Renders the pages with the templates precompiled at build time (jte, {@code ContentType.Html}: every expression is
 * escaped for its context) into a local temporary directory, with the site's assets, then publishes the directory as
 * {@code <output>/report/}: copied next to it under a temporary name and renamed into place, so that a reader sees the
 * previous report or the new one, never half of one.
 */
public final class Site {
  /** The report's directory under the output root. */
  public static final String DIRECTORY = "report";
  /** ECharts' bundle inside its webjar (org.webjars.npm:echarts), which the build unpacks into the classes. */
  static final String ECHARTS = "META-INF/resources/webjars/echarts/5.3.1/dist/echarts.min.js";
  private static final String ASSETS = "org/perflab/spark/report/assets/";

  private static final Logger LOG = LoggerFactory.getLogger(Site.class);
  /** Files copied to the output root at once. */
  static final int UPLOADS = 8;

  private final TemplateEngine engine = TemplateEngine.createPrecompiled(ContentType.Html);

  /**
   * Writes every page, every data file ({@code files}: UTF-8 text by path relative to the site root) and the
   * assets, and publishes them at once; returns the published index page.
   */
  public Path publish(TableStore output, Map<String, Page> pages, Map<String, String> files) {
    long started = System.nanoTime();
    java.nio.file.Path local = null;
    try {
      local = Files.createTempDirectory("perflab-report-");
      for (Map.Entry<String, Page> page : pages.entrySet()) {
        java.nio.file.Path file = local.resolve(page.getKey());
        Files.createDirectories(file.getParent());
        Files.writeString(file, render(page.getValue()), StandardCharsets.UTF_8);
      }
      for (Map.Entry<String, String> data : files.entrySet()) {
        Files.writeString(local.resolve(data.getKey()), data.getValue(), StandardCharsets.UTF_8);
      }
      copyAsset(ECHARTS, local.resolve("assets/echarts.min.js"));
      copyAsset(ASSETS + "report.js", local.resolve("assets/report.js"));
      copyAsset(ASSETS + "report.css", local.resolve("assets/report.css"));
      long rendered = System.nanoTime();
      Path index = moveIntoPlace(output, local);
      LOG.info("report: {} pages and {} data files rendered in {} s, published to {} in {} s", pages.size(),
          files.size(), seconds(started, rendered), output.path(DIRECTORY), seconds(rendered, System.nanoTime()));
      return index;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write the report: " + e.getMessage() + " (" + output.root() + ")", e);
    } finally {
      deleteLocal(local);
    }
  }

  private static String seconds(long fromNanos, long toNanos) {
    return String.format(java.util.Locale.ROOT, "%.1f", (toNanos - fromNanos) / 1e9);
  }

  /** One page as HTML. */
  public String render(Page page) {
    StringOutput html = new StringOutput();
    engine.render("page.jte", page, html);
    return html.toString();
  }

  private static void copyAsset(String resource, java.nio.file.Path target) throws IOException {
    Files.createDirectories(target.getParent());
    try (InputStream in = Site.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IOException("the build did not put " + resource + " on the class path");
      }
      Files.copy(in, target);
    }
  }

  private static Path moveIntoPlace(TableStore output, java.nio.file.Path localDir) throws IOException {
    // The raw local file system: the checksummed one would add a .crc file beside every page.
    FileSystem fs = output.fileSystem() instanceof LocalFileSystem local ? local.getRawFileSystem()
        : output.fileSystem();
    Path target = output.path(DIRECTORY);
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    Path staging = output.path("_report-staging-" + suffix);
    Path old = output.path("_report-old-" + suffix);
    fs.mkdirs(output.root());
    upload(fs, localDir, staging);
    boolean hadOld = fs.exists(target);
    if (hadOld && !fs.rename(target, old)) {
      throw new IOException("cannot move the previous report aside to " + old);
    }
    if (!fs.rename(staging, target)) {
      throw new IOException("cannot rename " + staging + " to " + target);
    }
    if (hadOld) {
      fs.delete(old, true);
    }
    return new Path(target, "index.html");
  }

  /**
   * Copies every file under {@code localDir} to the same relative path under {@code target}, {@value #UPLOADS} files at
   * a time: on HDFS or an object store each small file costs round trips to the NameNode and a DataNode (or the
   * store), which one file after another adds up to seconds for a report of a hundred pages.
   */
  static void upload(FileSystem fs, java.nio.file.Path localDir, Path target) throws IOException {
    List<java.nio.file.Path> files;
    try (Stream<java.nio.file.Path> walk = Files.walk(localDir)) {
      files = walk.filter(Files::isRegularFile).sorted().toList();
    }
    Set<Path> directories = new TreeSet<>();
    directories.add(target);
    files.forEach(f -> directories.add(remote(localDir, f, target).getParent()));
    for (Path d : directories) {
      fs.mkdirs(d);
    }
    ExecutorService pool = Executors.newFixedThreadPool(UPLOADS, r -> {
      Thread t = new Thread(r, "perflab-report-upload");
      t.setDaemon(true);
      return t;
    });
    try {
      List<Future<?>> copies = new ArrayList<>();
      for (java.nio.file.Path f : files) {
        copies.add(pool.submit(() -> {
          fs.copyFromLocalFile(false, true, new Path(f.toUri()), remote(localDir, f, target));
          return null;
        }));
      }
      for (Future<?> copy : copies) {
        Futures.awaitIo(copy::get, "copy the report to " + target);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** Where {@code file}, under {@code localDir}, goes under {@code target}. */
  private static Path remote(java.nio.file.Path localDir, java.nio.file.Path file, Path target) {
    return new Path(target, localDir.relativize(file).toString().replace(java.io.File.separatorChar, '/'));
  }

  private static void deleteLocal(java.nio.file.Path dir) {
    if (dir == null) {
      return;
    }
    try (Stream<java.nio.file.Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // A temporary directory left behind is harmless.
    }
  }
}
