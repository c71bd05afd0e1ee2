package org.offlink.it;

import java.io.ByteArrayOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/** Digests the spy prints, recomputed in Java from the files {@code -save-temps} keeps. */
final class Digests {
  private Digests() {}

  /** Lower-case hex SHA-256 of {@code bytes}. */
  static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The spy's {@code nvptx ptx[k] size=N sha256=H} lines for a linked PTX file, following GCC 12's
   * nvptx mkoffload (reference §3.4): a NUL is appended, the text is cut after each NUL, and in
   * each chunk CRs are dropped and every {@code //:} mapping line that starts right after a newline
   * is removed; the chunk keeps its NUL.
   */
  static List<String> nvptxChunkLines(byte[] ptx) {
    byte[] input = new byte[ptx.length + 1]; // the appended NUL ends the last chunk only
    System.arraycopy(ptx, 0, input, 0, ptx.length);
    List<String> lines = new ArrayList<>();
    int i = 0;
    while (i < ptx.length) {
      ByteArrayOutputStream chunk = new ByteArrayOutputStream();
      boolean afterNewline = false;
      while (true) {
        if (afterNewline && startsWith(input, i, "//:")) {
          while (input[i] != '\n') {
            i++;
          }
          i++;
          continue;
        }
        byte b = input[i++];
        afterNewline = b == '\n';
        if (b != '\r') {
          chunk.write(b);
        }
        if (b == 0) {
          break;
        }
      }
      byte[] bytes = chunk.toByteArray();
      lines.add(
          " nvptx ptx[" + lines.size() + "] size=" + bytes.length + " sha256=" + sha256(bytes));
    }
    return lines;
  }

  private static boolean startsWith(byte[] data, int at, String prefix) {
    if (at + prefix.length() > data.length) {
      return false;
    }
    for (int k = 0; k < prefix.length(); k++) {
      if (data[at + k] != prefix.charAt(k)) {
        return false;
      }
    }
    return true;
  }
}
