package org.offlink.streamer.ar;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.offlink.streamer.MalformedObjectException;

/**
 * The fixed 60-byte member header of an {@code ar} archive (all fields ASCII, space padded).
 *
 * <pre>
 * offset size field
 *      0   16 name   ("foo.o/", "/", "//", "/SYM64/", "/123", "#1/20", "__.SYMDEF")
 *     16   12 date   decimal seconds
 *     28    6 uid    decimal
 *     34    6 gid    decimal
 *     40    8 mode   octal
 *     48   10 size   decimal byte count of the data that follow (incl. a BSD inline name)
 *     58    2 fmag   "`\n"
 * </pre>
 *
 * <p>Only name and size matter here; date, uid, gid and mode are not validated because tools
 * disagree on them (deterministic archives write zeros, some tools leave them blank).
 *
 * @param rawName the name field with trailing spaces removed
 * @param size the decoded size field
 */
record ArHeader(String rawName, long size) {
  static final int SIZE = 60;

  static ArHeader parse(Path file, long offset, byte[] h) throws MalformedObjectException {
    if (h[58] != '`' || h[59] != '\n') {
      throw new MalformedObjectException(
          file, offset, "expected an ar member header ending in '`\\n', found " + quote(h, 58, 2));
    }
    String name = ascii(h, 0, 16).stripTrailing();
    String sizeText = ascii(h, 48, 10).stripTrailing();
    if (sizeText.isEmpty() || !sizeText.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw new MalformedObjectException(
          file, offset + 48, "expected a decimal ar member size, found " + quote(h, 48, 10));
    }
    return new ArHeader(name, Long.parseLong(sizeText));
  }

  private static String ascii(byte[] b, int from, int len) {
    return new String(b, from, len, StandardCharsets.ISO_8859_1);
  }

  /** Quotes bytes for an error message, escaping anything that is not printable ASCII. */
  static String quote(byte[] b, int from, int len) {
    StringBuilder sb = new StringBuilder("'");
    for (int i = from; i < from + len && i < b.length; i++) {
      int c = b[i] & 0xff;
      if (c >= 0x20 && c < 0x7f && c != '\'') {
        sb.append((char) c);
      } else if (c == '\n') {
        sb.append("\\n");
      } else {
        sb.append(String.format("\\x%02x", c));
      }
    }
    return sb.append('\'').toString();
  }
}
