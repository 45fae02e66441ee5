package org.perflab.costmodel;

import java.util.ArrayList;
import java.util.List;
import org.perflab.errors.BadInputException;

/** The small CSV files of the cost model (codec table, corpus pairs): {@code #} comments, a header, plain fields. */
public final class CsvLines {
  private CsvLines() {}

  /**
   * The data lines of {@code text} split at commas (no quoting): blank and {@code #} lines skipped, the first other
   * line must be {@code header}, every data line must have {@code fields} fields. Bad input names {@code source} and
   * the line number.
   */
  public static List<String[]> rows(String text, String source, String header, int fields) {
    List<String[]> rows = new ArrayList<>();
    boolean seen = false;
    int n = 0;
    for (String line : text.split("\n")) {
      n++;
      String l = line.strip();
      if (l.isEmpty() || l.startsWith("#")) {
        continue;
      }
      if (!seen) {
        BadInputException.require(l.equals(header), "Cannot read %s: line %d is not the header (%s)", source, n,
            header);
        seen = true;
        continue;
      }
      String[] f = l.split(",", -1);
      BadInputException.require(f.length == fields, "Cannot read %s: line %d has %d fields (%d)", source, n,
          f.length, fields);
      rows.add(f);
    }
    BadInputException.require(seen, "Cannot read %s: no header (%s)", source, header);
    return rows;
  }
}
