package org.offlink.bridge.nvptx;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The symbol marker lines of PTX text as nvptx-tools 0.20220610's {@code nvptx-none-ld} reads them
 * ({@code process_refs_defs}): a line {@code // BEGIN GLOBAL VAR DEF: name} or {@code FUNCTION
 * DEF:} defines {@code name}, {@code VAR DECL:} or {@code FUNCTION DECL:} refers to it. Like that
 * program it looks for the marker after a newline only (never on the text's first line) and stops
 * at the first NUL byte.
 *
 * @param definitions for each marker, whether it defines its name (else it refers to it)
 * @param names the markers' names, in text order
 */
record PtxMarkers(boolean[] definitions, String[] names) {
  private static final byte[] MARKER = ascii("\n// BEGIN GLOBAL ");
  private static final byte[] VAR_DEF = ascii("VAR DEF: ");
  private static final byte[] FUNCTION_DEF = ascii("FUNCTION DEF: ");
  private static final byte[] VAR_DECL = ascii("VAR DECL: ");
  private static final byte[] FUNCTION_DECL = ascii("FUNCTION DECL: ");

  /** The markers of {@code text[start, end)}, read up to its first NUL byte. */
  static PtxMarkers scan(byte[] text, int start, int end) {
    List<Boolean> defs = new ArrayList<>();
    List<String> names = new ArrayList<>();
    int i = start;
    while (i < end) {
      byte b = text[i];
      if (b == 0) {
        break;
      }
      if (b != '\n' || !startsWith(text, i, MARKER, end)) {
        i++;
        continue;
      }
      int p = i + MARKER.length;
      int type = 0;
      if (startsWith(text, p, VAR_DEF, end)) {
        type = 1;
        p += VAR_DEF.length;
      } else if (startsWith(text, p, FUNCTION_DEF, end)) {
        type = 1;
        p += FUNCTION_DEF.length;
      }
      if (startsWith(text, p, VAR_DECL, end)) {
        type = 2;
        p += VAR_DECL.length;
      } else if (startsWith(text, p, FUNCTION_DECL, end)) {
        type = 2;
        p += FUNCTION_DECL.length;
      }
      if (type == 0) {
        i = p;
        continue;
      }
      int nameEnd = p;
      while (nameEnd < end && text[nameEnd] != '\n' && text[nameEnd] != 0) {
        nameEnd++;
      }
      defs.add(type == 1);
      names.add(new String(text, p, nameEnd - p, StandardCharsets.ISO_8859_1));
      i = p + 1;
    }
    boolean[] d = new boolean[defs.size()];
    for (int k = 0; k < d.length; k++) {
      d[k] = defs.get(k);
    }
    return new PtxMarkers(d, names.toArray(new String[0]));
  }

  /** C's {@code strncmp} on {@code text[at, end)} (a NUL in it never matches a marker). */
  private static boolean startsWith(byte[] text, int at, byte[] prefix, int end) {
    return PtxImageParser.startsWith(text, at, prefix, end);
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
