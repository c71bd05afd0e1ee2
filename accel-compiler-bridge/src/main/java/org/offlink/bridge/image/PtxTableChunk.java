package org.offlink.bridge.image;

import java.util.List;
import java.util.Objects;

/**
 * A PTX chunk GCC 13+'s nvptx mkoffload writes itself (the {@code $offload_func_table} for reverse
 * offload, 14+ also {@code $offload_ind_func_table}): a sequence of C string literals, one per line
 * of the generated C file, that concatenate to the chunk's bytes. GCC writes them without newlines
 * between directives; the bytes are what libgomp receives, the lines what the C file shows.
 *
 * @param lines the C source lines of the initializer, in order
 */
public record PtxTableChunk(List<Line> lines) {
  /**
   * One source line: {@code blankBefore} an empty line precedes it, {@code indent} tabs, then
   * {@code "text"} with {@code text} already escaped for C.
   */
  public record Line(boolean blankBefore, int indent, String text, String bytes) {
    /** Checks the fields. */
    public Line {
      Objects.requireNonNull(text, "text");
      Objects.requireNonNull(bytes, "bytes");
    }
  }

  /** Copies the list. */
  public PtxTableChunk {
    lines = List.copyOf(lines);
  }

  /** The chunk's bytes (without the terminating NUL). */
  public byte[] bytes() {
    StringBuilder sb = new StringBuilder();
    lines.forEach(l -> sb.append(l.bytes()));
    return sb.toString().getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
  }
}
