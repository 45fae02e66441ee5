package org.perflab.eventlog.parse;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.perflab.table.Table;
import org.perflab.table.TableRow;

/**
 * One category's redacted properties of a log as a content-addressed set: the same properties in any order give the
 * same {@link #id}, so logs that share them (a cluster's Hadoop configuration, its JVM) share one stored copy.
 */
final class PropertySet {
  /** Bytes of SHA-256 kept in the id: 128 bits, so that distinct sets never share an id in practice. */
  private static final int ID_BYTES = 16;

  private final String category;
  private final TreeMap<String, String> byKey;
  private final String id;

  /** @param properties redacted values by key; never unredacted values, which would reach the id's input only */
  PropertySet(String category, Map<String, String> properties) {
    this.category = category;
    this.byKey = new TreeMap<>(properties);
    this.id = digest(category, byKey);
  }

  String id() {
    return id;
  }

  /** The log's row of {@code property_set_refs} (key columns are set by the parser). */
  TableRow refRow() {
    return Table.PROPERTY_SET_REFS.newRow().set("category", category).set("set_id", id)
        .set("num_rows", (long) byKey.size());
  }

  /** The set's rows of {@code property_sets}, one per key, in key order. */
  List<TableRow> rows() {
    List<TableRow> rows = new ArrayList<>(byKey.size());
    byKey.forEach((key, value) -> rows.add(Table.PROPERTY_SETS.newRow().set("set_id", id).set("category", category)
        .set("key", key).set("value", value)));
    return rows;
  }

  /** The first {@link #ID_BYTES} of the SHA-256 of the category and rows, each string length-prefixed, as hex. */
  private static String digest(String category, TreeMap<String, String> byKey) {
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("Cannot hash a property set: the JVM has no SHA-256", e);
    }
    update(sha, category);
    byKey.forEach((key, value) -> {
      update(sha, key);
      update(sha, value);
    });
    byte[] hash = sha.digest();
    return HexFormat.of().formatHex(hash, 0, ID_BYTES);
  }

  /** A string as its UTF-8 length then bytes (a null as length -1), so that no two row lists hash the same input. */
  private static void update(MessageDigest sha, String text) {
    if (text == null) {
      sha.update(ByteBuffer.allocate(Integer.BYTES).putInt(-1).array());
      return;
    }
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    sha.update(ByteBuffer.allocate(Integer.BYTES).putInt(bytes.length).array());
    sha.update(bytes);
  }
}
