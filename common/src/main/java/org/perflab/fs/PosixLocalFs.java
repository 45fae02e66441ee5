package org.perflab.fs;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ChecksumFs;
import org.apache.hadoop.fs.DelegateToFileSystem;
import org.apache.hadoop.fs.FsConstants;
import org.apache.hadoop.fs.FsServerDefaults;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.local.LocalConfigKeys;

/**
 * The FileContext side of {@link PosixLocalFileSystem}: Hadoop's checksummed local {@code AbstractFileSystem}
 * ({@code org.apache.hadoop.fs.local.LocalFs}) over {@link PosixLocalFileSystem.Raw}. Delta's log store commits by a
 * FileContext rename, which checks both of its paths with {@code getFileLinkStatus}.
 */
public class PosixLocalFs extends ChecksumFs {
  /** The constructor Hadoop calls for {@code fs.AbstractFileSystem.file.impl}. */
  public PosixLocalFs(URI uri, Configuration conf) throws IOException, URISyntaxException {
    super(new Raw(uri, conf));
  }

  /** Hadoop's {@code org.apache.hadoop.fs.local.RawLocalFs}, over {@link PosixLocalFileSystem.Raw}. */
  static final class Raw extends DelegateToFileSystem {
    Raw(URI uri, Configuration conf) throws IOException, URISyntaxException {
      super(uri, new PosixLocalFileSystem.Raw(), conf, FsConstants.LOCAL_FS_URI.getScheme(), false);
    }

    @Override
    public int getUriDefaultPort() {
      return -1; // no port
    }

    @Override
    public FsServerDefaults getServerDefaults(Path f) throws IOException {
      return LocalConfigKeys.getServerDefaults();
    }

    @Override
    @Deprecated
    public FsServerDefaults getServerDefaults() throws IOException {
      return LocalConfigKeys.getServerDefaults();
    }

    /** Local file systems differ in what names they accept: the operating system decides, as in Hadoop's. */
    @Override
    public boolean isValidName(String src) {
      return true;
    }
  }
}
