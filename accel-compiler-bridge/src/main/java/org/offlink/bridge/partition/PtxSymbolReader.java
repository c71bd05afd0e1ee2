package org.offlink.bridge.partition;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Reads a partition's {@link PartitionSymbols} from its PTX object (the accel compiler's {@code -c}
 * output: PTX text after {@code nvptx-as}).
 *
 * <p>GCC's nvptx back end announces every symbol with a marker comment ({@code write_fn_marker},
 * {@code write_var_marker}, gcc/config/nvptx/nvptx.cc@12), the same in GCC 12 to 16:
 *
 * <pre>
 * // BEGIN [GLOBAL ]FUNCTION|VAR DEF|DECL: &lt;name&gt;
 * </pre>
 *
 * {@code GLOBAL} marks a public symbol; a public definition whose directive line starts with {@code
 * .weak} is weak. OpenMP entry points have no marker: their line is {@code .visible .entry <name>
 * (...)} ({@code write_omp_entry}). The registered names come from the {@code //:FUNC_MAP}, {@code
 * //:VAR_MAP} and (GCC 14+) {@code //:IND_FUNC_MAP} lines.
 */
public final class PtxSymbolReader {
  private static final String MARKER = "// BEGIN ";
  private static final String ENTRY = ".visible .entry ";

  private PtxSymbolReader() {}

  /** The symbols of the PTX text {@code ptx}. */
  public static PartitionSymbols read(byte[] ptx) {
    String[] lines = new String(ptx, StandardCharsets.ISO_8859_1).split("\n", -1);
    Map<String, PartitionSymbols.Linkage> defined = new HashMap<>();
    Set<String> mentioned = new HashSet<>();
    Set<String> registered = new HashSet<>();
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].strip();
      if (line.startsWith("//:")) {
        registered.add(mapName(line));
      } else if (line.startsWith(ENTRY)) {
        defined.put(firstWord(line.substring(ENTRY.length())), PartitionSymbols.Linkage.GLOBAL);
      } else if (line.startsWith(MARKER)) {
        marker(line.substring(MARKER.length()), next(lines, i), defined, mentioned);
      }
    }
    mentioned.removeAll(defined.keySet());
    return new PartitionSymbols(defined, mentioned, registered);
  }

  private static void marker(
      String body,
      String directive,
      Map<String, PartitionSymbols.Linkage> defined,
      Set<String> mentioned) {
    int colon = body.indexOf(": ");
    if (colon < 0) {
      return; // "// BEGIN PREAMBLE"
    }
    String kind = body.substring(0, colon);
    String name = body.substring(colon + 2).strip();
    boolean global = kind.startsWith("GLOBAL ");
    if (kind.endsWith(" DEF")) {
      PartitionSymbols.Linkage linkage =
          !global
              ? PartitionSymbols.Linkage.LOCAL
              : directive.startsWith(".weak")
                  ? PartitionSymbols.Linkage.WEAK
                  : PartitionSymbols.Linkage.GLOBAL;
      defined.merge(name, linkage, (a, b) -> a);
    } else if (kind.endsWith(" DECL")) {
      mentioned.add(name);
    }
  }

  /** The quoted name of a {@code //:FUNC_MAP "name", ...} line. */
  private static String mapName(String line) {
    int open = line.indexOf('"');
    int close = line.indexOf('"', open + 1);
    return open < 0 || close < 0 ? line : line.substring(open + 1, close);
  }

  private static String firstWord(String text) {
    int end = 0;
    while (end < text.length() && text.charAt(end) != ' ' && text.charAt(end) != '(') {
      end++;
    }
    return text.substring(0, end);
  }

  /** The next line after {@code i} that is not blank, stripped. */
  private static String next(String[] lines, int i) {
    for (int k = i + 1; k < lines.length; k++) {
      String s = lines[k].strip();
      if (!s.isEmpty()) {
        return s;
      }
    }
    return "";
  }
}
