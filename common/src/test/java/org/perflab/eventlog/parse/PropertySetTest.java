package org.perflab.eventlog.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.perflab.table.TableRow;

/** Content-addressed property sets: the id names the content, whatever order the log listed it in. */
class PropertySetTest {

  private static Map<String, String> ordered(String... keysAndValues) {
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put(keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }

  @Test
  void theSamePropertiesInAnyOrderHaveOneIdAndAnyChangeAnother() {
    PropertySet set = new PropertySet("HADOOP", ordered("fs.defaultFS", "hdfs://nn", "io.file.buffer.size", "65536"));
    PropertySet reordered =
        new PropertySet("HADOOP", ordered("io.file.buffer.size", "65536", "fs.defaultFS", "hdfs://nn"));

    assertThat(set.id()).matches("[0-9a-f]{32}").isEqualTo(reordered.id());
    assertThat(new PropertySet("HADOOP", ordered("fs.defaultFS", "hdfs://nn", "io.file.buffer.size", "4096")).id())
        .isNotEqualTo(set.id());
    assertThat(new PropertySet("SYSTEM", ordered("fs.defaultFS", "hdfs://nn", "io.file.buffer.size", "65536")).id())
        .as("the category is part of the content").isNotEqualTo(set.id());
    // Length prefixes: moving a character from a key to its value is another set.
    assertThat(new PropertySet("JVM", ordered("ab", "c")).id())
        .isNotEqualTo(new PropertySet("JVM", ordered("a", "bc")).id());
  }

  /**
   * The id is the content's digest as documented, computed here independently, so that ids written by earlier code
   * stay valid: keys in {@code String} order (upper case before lower, by UTF-16 unit), each string length-prefixed.
   */
  @Test
  void theIdIsTheDigestOfTheCategoryAndTheRowsInKeyOrder() throws Exception {
    Map<String, String> properties = ordered("b", "2", "a", "1", "B", null, "\u00e9t\u00e9", "\u20ac", "A.b", "x");
    java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-256");
    for (String text : new String[] {"SYSTEM", "A.b", "x", "B", null, "a", "1", "b", "2", "\u00e9t\u00e9", "\u20ac"}) {
      byte[] bytes = text == null ? new byte[0] : text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
      sha.update(java.nio.ByteBuffer.allocate(4).putInt(text == null ? -1 : bytes.length).array());
      sha.update(bytes);
    }
    String expected = java.util.HexFormat.of().formatHex(sha.digest(), 0, 16);

    PropertySet set = new PropertySet("SYSTEM", properties);

    assertThat(set.id()).isEqualTo(expected);
    assertThat(set.rows()).extracting(row -> (String) row.get("key"))
        .containsExactly("A.b", "B", "a", "b", "\u00e9t\u00e9");
  }

  @Test
  void aSetIsOneReferenceAndOneRowPerKeyInKeyOrder() {
    PropertySet set = new PropertySet("JVM", ordered("Java Version", "17", "Java Home", "/usr/lib/jvm"));

    TableRow ref = set.refRow();
    assertThat(List.of(ref.get("category"), ref.get("set_id"), ref.get("num_rows")))
        .containsExactly("JVM", set.id(), 2L);
    assertThat(set.rows()).extracting(row -> row.get("key") + "=" + row.get("value") + "@" + row.get("set_id"))
        .containsExactly("Java Home=/usr/lib/jvm@" + set.id(), "Java Version=17@" + set.id());
  }
}
