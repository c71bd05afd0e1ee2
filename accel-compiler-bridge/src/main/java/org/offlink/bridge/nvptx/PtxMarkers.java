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
 * <p>nvptx-tools 0.20240810 and later read them a little differently ({@link #scan2024}).
 *
 * @param definitions for each marker, whether it defines its name (else it refers to it)
 * @param names the markers' names, in text order
 * @param weak for each marker, whether a {@code .weak } line follows it ({@link #scan2024} only)
 */
record PtxMarkers(boolean[] definitions, String[] names, boolean[] weak) {
  private static final byte[] MARKER = ascii("\n// BEGIN GLOBAL ");
  private static final byte[] VAR_DEF = ascii("VAR DEF: ");
  private static final byte[] FUNCTION_DEF = ascii("FUNCTION DEF: ");
  private static final byte[] VAR_DECL = ascii("VAR DECL: ");
  private static final byte[] FUNCTION_DECL = ascii("FUNCTION DECL: ");
  private static final byte[] WEAK = ascii("\n.weak ");

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
    return of(defs, names, new ArrayList<>(java.util.Collections.nCopies(defs.size(), false)));
  }

  /**
   * The markers of {@code text[start, end)} as nvptx-tools 0.20240810's {@code process_refs_defs}
   * reads them up to the first NUL byte: the kind is one of the four prefixes (else the marker is
   * skipped), the name runs to the line's end, and a marker line without one (the text ends, or a
   * NUL comes, first) is that program's "truncated marker line" error, here {@link
   * NvptxLinker.Unsupported}; a {@code .weak } line right after a marker makes it weak.
   */
  static PtxMarkers scan2024(byte[] text, int start, int end) throws NvptxLinker.Unsupported {
    List<Boolean> defs = new ArrayList<>();
    List<String> names = new ArrayList<>();
    List<Boolean> weak = new ArrayList<>();
    int i = start;
    while (i < end && text[i] != 0) {
      if (text[i] != '\n' || !startsWith(text, i, MARKER, end)) {
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
      } else if (startsWith(text, p, VAR_DECL, end)) {
        type = 2;
        p += VAR_DECL.length;
      } else if (startsWith(text, p, FUNCTION_DECL, end)) {
        type = 2;
        p += FUNCTION_DECL.length;
      }
      int lf = p;
      while (lf < end && text[lf] != '\n' && text[lf] != 0) {
        lf++;
      }
      if (lf == end || text[lf] == 0) {
        throw new NvptxLinker.Unsupported("a truncated marker line");
      }
      i = lf;
      if (type == 0) {
        continue;
      }
      boolean isWeak = startsWith(text, lf, WEAK, end);
      if (isWeak) {
        i += WEAK.length;
      }
      defs.add(type == 1);
      names.add(new String(text, p, lf - p, StandardCharsets.ISO_8859_1));
      weak.add(isWeak);
    }
    return of(defs, names, weak);
  }

  private static PtxMarkers of(List<Boolean> defs, List<String> names, List<Boolean> weak) {
    boolean[] d = new boolean[defs.size()];
    boolean[] w = new boolean[weak.size()];
    for (int k = 0; k < d.length; k++) {
      d[k] = defs.get(k);
      w[k] = weak.get(k);
    }
    return new PtxMarkers(d, names.toArray(new String[0]), w);
  }

  /** C's {@code strncmp} on {@code text[at, end)} (a NUL in it never matches a marker). */
  private static boolean startsWith(byte[] text, int at, byte[] prefix, int end) {
    return PtxImageParser.startsWith(text, at, prefix, end);
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
