package org.offlink.bridge.nvptx;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Optional;
import org.offlink.bridge.image.NvptxFunction;
import org.offlink.bridge.image.PtxTableChunk;
import org.offlink.bridge.image.PtxTableChunk.Line;
import org.offlink.streamer.MalformedObjectException;

/**
 * The PTX chunks GCC 13+'s nvptx mkoffload writes after the linked ones (delta §5.3-5.4): with
 * {@code omp requires reverse_offload} and at least one {@code FUNC_MAP}, a {@code
 * $offload_func_table} naming the {@code $nohost} functions (0 for the others); with {@code
 * IND_FUNC_MAP}s (14+), an {@code $offload_ind_func_table}. Each is a {@code .version}/{@code
 * .target} header copied from the PTX, a dummy function (GCC's workaround for PR 108098), one
 * {@code .extern} declaration per named function, found after its {@code // BEGIN GLOBAL FUNCTION
 * DECL:} comment, and the table. GCC writes the pieces as separate C literals without newlines
 * between them; so does this.
 *
 * <p>Reverse offload needs sm_35: when a chunk with a function map is reached while the last {@code
 * .target} seen is {@code sm_30}, GCC warns and writes an empty C file (no registration for the
 * target): {@link Result#disabled()}.
 */
final class PtxFunctionTables {
  /** {@code GOMP_REQUIRES_REVERSE_OFFLOAD}. */
  static final int REVERSE_OFFLOAD = 0x80;

  /** GCC 13-15's warning text (as 13 prints it, ASCII quotes). */
  static final String SM30_WARNING =
      "'omp requires reverse_offload' requires at least 'sm_35' for"
          + " '-foffload-options=nvptx-none=-march=' - disabling offload-code generation for this"
          + " device type";

  private static final String DECL = "// BEGIN GLOBAL FUNCTION DECL: ";

  private final List<byte[]> chunks;
  private final Path file;

  /** The last {@code .version}/{@code .target sm_} value seen by the end of each chunk. */
  private final List<String> versionAt = new ArrayList<>();

  private final List<String> smAt = new ArrayList<>();

  private PtxFunctionTables(List<byte[]> chunks, Path file) {
    this.chunks = chunks;
    this.file = file;
    String version = null;
    String sm = null;
    for (byte[] c : chunks) {
      for (int p = 1; p < c.length; p++) {
        if (c[p - 1] != '\n') {
          continue;
        }
        if (startsWith(c, p, ".target sm_")) {
          sm = lineFrom(c, p + ".target sm_".length());
        } else if (startsWith(c, p, ".version ")) {
          version = lineFrom(c, p + ".version ".length());
        }
      }
      versionAt.add(version);
      smAt.add(sm);
    }
  }

  /** The table chunks, or that the image is disabled. */
  record Result(List<PtxTableChunk> tables, boolean disabled) {}

  /**
   * The table chunks for the parsed image: {@code functionChunks} are the chunks that held a
   * function map, {@code mask} the requires mask.
   */
  static Result build(
      List<byte[]> chunks,
      List<NvptxFunction> functions,
      List<String> indirect,
      BitSet functionChunks,
      int mask,
      Path file)
      throws IOException {
    boolean reverse = (mask & REVERSE_OFFLOAD) != 0;
    if (!reverse && indirect.isEmpty()) {
      // Nothing to write: the usual image, whose whole PTX the scan below would read for nothing
      // (~10 ms of a young JVM's interpreted code on the link's critical path).
      return new Result(List.of(), false);
    }
    PtxFunctionTables t = new PtxFunctionTables(chunks, file);
    List<PtxTableChunk> tables = new ArrayList<>();
    String version2 = null;
    String sm2 = null;
    if (reverse) {
      for (int k = functionChunks.nextSetBit(0); k >= 0; k = functionChunks.nextSetBit(k + 1)) {
        String sm = t.smAt.get(k);
        if ("30\n".equals(sm)) {
          return new Result(List.of(), true);
        }
        sm2 = sm;
        version2 = t.versionAt.get(k);
      }
    }
    if (reverse && !functions.isEmpty()) {
      List<String> names = functions.stream().map(NvptxFunction::name).toList();
      tables.add(t.reverseTable(names, version2, sm2));
    }
    if (!indirect.isEmpty()) {
      int last = chunks.size() - 1;
      tables.add(t.indirectTable(indirect, t.versionAt.get(last), t.smAt.get(last)));
    }
    return new Result(tables, false);
  }

  private PtxTableChunk reverseTable(List<String> names, String version, String sm)
      throws IOException {
    List<Line> lines = header(version, sm, "1", "__dummy$func");
    Search search = new Search();
    for (String name : names) {
      if (nohost(name)) {
        String decl = search.declaration(name);
        if (!decl.startsWith(".visible ")) {
          throw new MalformedObjectException(
              file, 0, "declaration of " + name + " does not start with '.visible '");
        }
        lines.add(plain(".extern " + decl.substring(".visible ".length())));
      }
    }
    List<String> entries = new ArrayList<>();
    for (String name : names) {
      entries.add(nohost(name) ? name : "0");
    }
    table(lines, "$offload_func_table", entries);
    return new PtxTableChunk(lines);
  }

  private PtxTableChunk indirectTable(List<String> names, String version, String sm)
      throws IOException {
    List<Line> lines = header(version, sm, "2", "__dummy$func2");
    Search search = new Search();
    for (String name : names) {
      lines.add(plain(".extern " + skipToFunc(search.declaration(name))));
    }
    table(lines, "$offload_ind_func_table", names);
    return new PtxTableChunk(lines);
  }

  private List<Line> header(String version, String sm, String fileNo, String dummy)
      throws MalformedObjectException {
    if (version == null || sm == null) {
      throw new MalformedObjectException(
          file, 0, "malformed ptx file: no '.version' or '.target sm_' line before a function map");
    }
    List<Line> lines = new ArrayList<>();
    lines.add(plain(".version " + strip(version)));
    lines.add(plain(".target sm_" + strip(sm)));
    lines.add(
        new Line(
            false, 1, ".file " + fileNo + " \\\"<dummy>\\\"", ".file " + fileNo + " \"<dummy>\""));
    lines.add(new Line(true, 1, ".func " + dummy + " ( );", ".func " + dummy + " ( );"));
    lines.add(plain(".func " + dummy + " ( )"));
    lines.add(plain("{"));
    lines.add(plain("}"));
    return lines;
  }

  /** The table's opening line and one line per entry; the last closes the initializer. */
  private static void table(List<Line> lines, String symbol, List<String> entries) {
    lines.add(plain(".visible .global .align 8 .u64 " + symbol + "[] = {"));
    for (int i = 0; i < entries.size(); i++) {
      String e = entries.get(i);
      boolean last = i == entries.size() - 1;
      lines.add(
          last
              ? new Line(false, 2, e + "};\\n", e + "};\n")
              : new Line(false, 2, e + ",", e + ","));
    }
  }

  private static Line plain(String text) {
    return new Line(false, 1, text, text);
  }

  private static boolean nohost(String name) {
    return name.endsWith("$nohost") || name.contains("$nohost$");
  }

  /** Skips leading directives ({@code .visible}, {@code .weak}) up to {@code .func}, as GCC. */
  private String skipToFunc(String decl) throws MalformedObjectException {
    int p = 0;
    while (!decl.startsWith(".func", p)) {
      int space = decl.indexOf(' ', p);
      if (space < 0) {
        throw new MalformedObjectException(file, 0, "no '.func' in declaration '" + decl + "'");
      }
      p = space + 1;
    }
    return decl.substring(p);
  }

  /**
   * GCC's declaration search: from the start of the chunk where the previous search ended, the next
   * {@code // BEGIN GLOBAL FUNCTION DECL: <name>} line; the declaration is the line after it.
   */
  private final class Search {
    private int chunk;

    String declaration(String name) throws IOException {
      byte[] needle = (DECL + name + "\n").getBytes(StandardCharsets.ISO_8859_1);
      while (chunk < chunks.size()) {
        Optional<String> found = find(chunks.get(chunk), needle);
        if (found.isPresent()) {
          return found.get();
        }
        chunk++;
      }
      throw new IOException("Cannot find function declaration for '" + name + "'");
    }

    private Optional<String> find(byte[] c, byte[] needle) {
      for (int p = 0; p + needle.length <= c.length; p++) {
        if (PtxImageParser.startsWith(c, p, needle)) {
          String line = lineFrom(c, p + needle.length);
          return Optional.of(strip(line));
        }
      }
      return Optional.empty();
    }
  }

  private static String strip(String line) {
    return line.endsWith("\n") ? line.substring(0, line.length() - 1) : line;
  }

  /** The text from {@code p} up to and including the next newline (or the chunk's end). */
  private static String lineFrom(byte[] c, int p) {
    int end = p;
    while (end < c.length && c[end] != '\n') {
      end++;
    }
    if (end < c.length) {
      end++;
    }
    return new String(c, p, end - p, StandardCharsets.ISO_8859_1);
  }

  private static boolean startsWith(byte[] c, int p, String prefix) {
    return PtxImageParser.startsWith(c, p, prefix.getBytes(StandardCharsets.ISO_8859_1));
  }
}
