package org.offlink.benchmarks;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Writes a plain GNU {@code ar} archive (no symbol index, names of at most 15 characters) for the
 * listing benchmark.
 *
 * <pre>
 * archive := "!&lt;arch&gt;\n" member*
 * member  := header(60) data pad     ; pad: one '\n' when the data size is odd
 * header  := name/ (16) mtime (12) uid (6) gid (6) mode (8) size (10) "`\n"   ; ASCII, space-padded
 * </pre>
 */
final class ArWriter {
  private ArWriter() {}

  static byte[] write(Map<String, byte[]> members) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes("!<arch>\n".getBytes(StandardCharsets.US_ASCII));
    for (Map.Entry<String, byte[]> m : members.entrySet()) {
      if (m.getKey().length() > 15) {
        throw new IllegalArgumentException("member name over 15 characters: " + m.getKey());
      }
      byte[] data = m.getValue();
      String header =
          pad(m.getKey() + "/", 16)
              + pad("0", 12)
              + pad("0", 6)
              + pad("0", 6)
              + pad("644", 8)
              + pad(Integer.toString(data.length), 10)
              + "`\n";
      out.writeBytes(header.getBytes(StandardCharsets.US_ASCII));
      out.writeBytes(data);
      if (data.length % 2 == 1) {
        out.write('\n');
      }
    }
    return out.toByteArray();
  }

  private static String pad(String s, int width) {
    return s + " ".repeat(width - s.length());
  }
}
