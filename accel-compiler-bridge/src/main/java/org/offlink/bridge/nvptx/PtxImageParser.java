package org.offlink.bridge.nvptx;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import org.offlink.bridge.image.NvptxFunction;
import org.offlink.bridge.image.NvptxImage;
import org.offlink.streamer.MalformedObjectException;

/**
 * Turns linked PTX (nvptx-ld output) into what GCC 12's nvptx mkoffload registers.
 *
 * <pre>
 * input   := chunk* ; nvptx-ld terminates every object's PTX with NUL
 * chunk   := byte* NUL
 * map     := "//:VAR_MAP " record "\n" | "//:FUNC_MAP " record "\n"   ; only right after a "\n"
 *          | "//:IND_FUNC_MAP " record "\n"                           ; GCC 14+ ({@link #parseVersioned})
 * record  := C-string ( "," int )*      ; e.g. "main$_omp_fn$0", 0x20, 0x1, 0x40
 * </pre>
 *
 * As in GCC 12 ({@code process}), {@code \r} bytes are dropped from chunks, map lines that start
 * right after a newline are removed (with their newline) and collected in file order, and any other
 * {@code //:} line there is an error (GCC aborts). A record must end in a newline before the
 * chunk's NUL ({@code malformed ptx file}). A missing final NUL ends the last chunk at EOF (GCC
 * reads past its buffer there).
 */
public final class PtxImageParser {
  private static final byte[] MARK = bytes("//:");
  private static final byte[] VAR = bytes("VAR_MAP ");
  private static final byte[] FUNC = bytes("FUNC_MAP ");
  private static final byte[] IND_FUNC = bytes("IND_FUNC_MAP ");

  private final byte[] in;
  private final Path file;
  private final List<String> vars = new ArrayList<>();
  private final List<NvptxFunction> funcs = new ArrayList<>();
  private final List<String> indirect = new ArrayList<>();
  private final BitSet functionChunks = new BitSet();
  private final boolean acceptIndirect;
  private int chunkIndex;
  private int pos;

  private PtxImageParser(byte[] in, Path file) {
    this(in, file, false);
  }

  private PtxImageParser(byte[] in, Path file, boolean acceptIndirect) {
    this.in = in;
    this.file = file;
    this.acceptIndirect = acceptIndirect;
  }

  /**
   * The result of a GCC 13+ parse: the image's chunks, variables and functions, the {@code
   * IND_FUNC_MAP} names, and which chunks held a {@code FUNC_MAP} or {@code IND_FUNC_MAP} (GCC's
   * {@code output_fn_ptr}, which decides the reverse-offload checks).
   */
  public record Parsed(NvptxImage image, List<String> indirect, BitSet functionChunks) {}

  /**
   * Parses like {@link #parseReusing}, also accepting {@code //:IND_FUNC_MAP} when {@code
   * acceptIndirect} (GCC 14+; GCC 13 aborts on it).
   */
  public static Parsed parseVersioned(byte[] ptx, Path file, boolean acceptIndirect)
      throws MalformedObjectException {
    PtxImageParser p = new PtxImageParser(ptx, file, acceptIndirect);
    NvptxImage image = p.run();
    return new Parsed(image, List.copyOf(p.indirect), (BitSet) p.functionChunks.clone());
  }

  /** Parses linked PTX text (test convenience; NULs may be written as {@code \0}). */
  public static NvptxImage parse(String ptx) throws MalformedObjectException {
    return parse(ptx.getBytes(StandardCharsets.ISO_8859_1), Path.of("<string>"));
  }

  /** Parses the bytes of {@code file}; {@code ptx} is left as it was. */
  public static NvptxImage parse(byte[] ptx, Path file) throws MalformedObjectException {
    return new PtxImageParser(ptx.clone(), file).run();
  }

  /**
   * Parses the bytes of {@code file} using {@code ptx} itself as the work buffer: its contents are
   * undefined afterwards. For a caller that read the file only to parse it; linked PTX is hundreds
   * of KB, and on the link's critical path every fresh buffer of that size costs page faults.
   */
  public static NvptxImage parseReusing(byte[] ptx, Path file) throws MalformedObjectException {
    return new PtxImageParser(ptx, file).run();
  }

  /**
   * Runs the chunk scan over {@value #WARM_UP_BYTES} bytes of synthetic text and discards the
   * result. {@link NvptxImageBuilder} runs it on another thread while nvptx-ld works, so that the
   * JIT has compiled the scan loop (after some 60,000 interpreted iterations) by the time the real
   * PTX arrives; otherwise the first ~100 KB of it are scanned by the interpreter on the link's
   * critical path (about 3 ms of a saxpy link, measured). Touches nothing but its own buffer.
   */
  public static void exerciseScanLoop() {
    byte[] text = new byte[WARM_UP_BYTES];
    Arrays.fill(text, (byte) ' ');
    try {
      new PtxImageParser(text, Path.of("<warm-up>")).run();
    } catch (MalformedObjectException e) {
      throw new IllegalStateException("synthetic PTX rejected", e); // no "//:" in it: unreachable
    }
  }

  /** Enough iterations for the JIT's loop threshold (Tier3BackEdgeThreshold, 60,000). */
  static final int WARM_UP_BYTES = 96 * 1024;

  private NvptxImage run() throws MalformedObjectException {
    List<byte[]> chunks = new ArrayList<>();
    while (pos < in.length) {
      chunks.add(chunk());
      chunkIndex++;
    }
    return new NvptxImage(chunks, vars, funcs);
  }

  /**
   * One chunk, up to its NUL. The scan stops only at bytes that change the output (NUL, {@code \r},
   * a newline before {@code /}); everything between them is moved in bulk, compacting the chunk in
   * place (the write position {@code n} never passes the read position {@code p}, and map lines are
   * read ahead of both). The loop works on locals: linked PTX is hundreds of KB, and this runs on
   * the link's critical path, often before the JIT has compiled it.
   */
  private byte[] chunk() throws MalformedObjectException {
    byte[] in = this.in;
    int end = in.length;
    int start = pos;
    int n = start;
    int p = pos;
    int run = p;
    while (p < end) {
      byte c = in[p];
      if (c != 0 && c != '\r' && (c != '\n' || p + 1 == end || in[p + 1] != '/')) {
        p++;
        continue;
      }
      move(run, n, p - run);
      n += p - run;
      p++;
      if (c == 0) {
        run = p;
        break;
      }
      if (c == '\n') {
        in[n++] = '\n';
        pos = p;
        while (startsWith(pos, MARK)) {
          mapLine();
        }
        p = pos;
      }
      run = p;
    }
    move(run, n, p - run);
    n += p - run;
    pos = p;
    return Arrays.copyOfRange(in, start, n);
  }

  private void move(int from, int to, int length) {
    if (from != to) {
      System.arraycopy(in, from, in, to, length);
    }
  }

  private void mapLine() throws MalformedObjectException {
    int start = pos;
    int p = pos + MARK.length;
    boolean isVar = startsWith(p, VAR);
    boolean isIndirect = !isVar && acceptIndirect && startsWith(p, IND_FUNC);
    if (!isVar && !isIndirect && !startsWith(p, FUNC)) {
      throw new MalformedObjectException(
          file,
          start,
          "unknown mapping directive '"
              + line(start)
              + "' (expected //:VAR_MAP"
              + (acceptIndirect ? ", //:FUNC_MAP or //:IND_FUNC_MAP)" : " or //:FUNC_MAP)"));
    }
    int recordStart = p + (isVar ? VAR.length : isIndirect ? IND_FUNC.length : FUNC.length);
    int end = recordStart;
    while (end < in.length && in[end] != '\n' && in[end] != 0) {
      end++;
    }
    if (end >= in.length || in[end] != '\n') {
      throw new MalformedObjectException(
          file, start, "malformed ptx file: mapping line without" + " newline");
    }
    String text = new String(in, recordStart, end - recordStart, StandardCharsets.ISO_8859_1);
    MapRecord record = MapRecord.parse(stripCr(text), file, recordStart);
    if (isVar) {
      vars.add(record.name());
    } else if (isIndirect) {
      functionChunks.set(chunkIndex);
      indirect.add(record.name());
    } else {
      functionChunks.set(chunkIndex);
      funcs.add(record.toFunction(file, recordStart));
    }
    pos = end + 1;
  }

  /** A trailing CR is whitespace to the C compiler that reads GCC's record text. */
  private static String stripCr(String text) {
    return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
  }

  private String line(int start) {
    int end = start;
    while (end < in.length && in[end] != '\n' && in[end] != 0 && end - start < 60) {
      end++;
    }
    return new String(in, start, end - start, StandardCharsets.ISO_8859_1);
  }

  private boolean startsWith(int at, byte[] prefix) {
    return startsWith(in, at, prefix);
  }

  /** Whether {@code bytes} holds {@code prefix} at {@code at} (false past the end). */
  static boolean startsWith(byte[] bytes, int at, byte[] prefix) {
    return startsWith(bytes, at, prefix, bytes.length);
  }

  /** Whether {@code bytes[at, end)} begins with {@code prefix}. */
  static boolean startsWith(byte[] bytes, int at, byte[] prefix, int end) {
    if (at + prefix.length > end) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if (bytes[at + i] != prefix[i]) {
        return false;
      }
    }
    return true;
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
