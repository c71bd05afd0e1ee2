package org.offlink.bridge.gcn;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.offlink.bridge.image.GcnKernel;
import org.offlink.streamer.MalformedObjectException;

/**
 * The gcn {@code process_asm} of GCC 12 (reference §4.3) and later (delta §6.4): reads the accel
 * compiler's assembly in {@code fgets} pieces of at most 999 bytes, writes the filtered assembly
 * and collects the kernel table.
 *
 * <ul>
 *   <li>States CODE, METADATA ({@code .amdgpu_metadata} … {@code .end_amdgpu_metadata}), VARS
 *       ({@code .section .gnu.offload_vars}) and FUNCS ({@code .section .gnu.offload_funcs}).
 *   <li>CODE: {@code ;; OPENACC-DIMS: d0, d1, d2 : name} records dims.
 *   <li>METADATA: {@code - .name:}, {@code .sgpr_count:}, {@code .vgpr_count:}; all three required
 *       at the end of each block (GCC asserts).
 *   <li>VARS: the section line is followed by {@code .global/.type/label} lines for {@code
 *       .offload_var_table} and the section line once more; each {@code .8byte sym} plus {@code
 *       .8byte size} pair counts a variable.
 *   <li>FUNCS: every {@code \t.8byte\tname} adds a kernel. GCC 12 drops the whole section; 13+ keep
 *       its section line, a global {@code .offload_func_table} label and the {@code .8byte} lines
 *       (for reverse offload) and drop the compiler's other lines there.
 *   <li>IND_FUNCS (14+, {@code .section .gnu.offload_ind_funcs}): the same with {@code
 *       .offload_ind_func_table}; each {@code .8byte} line counts an indirect function.
 * </ul>
 *
 * Kernels are {@code _init_array}, {@code _fini_array}, then the funcs-table names; each takes the
 * first matching dims and register counts (0 when none).
 */
public final class GcnAsmProcessor {
  private static final int FGETS_MAX = 999;

  private enum State {
    CODE,
    METADATA,
    VARS,
    FUNCS,
    IND_FUNCS
  }

  /** The filtered assembly (.2.s), the kernel table, the variable and indirect-function counts. */
  public record Result(
      byte[] assembly, List<GcnKernel> kernels, int variableCount, int indirectFunctionCount) {}

  private final Path file;
  private final GcnRelease release;
  private final boolean tableLabels;
  private final StringBuilder out = new StringBuilder();
  private final List<String> functions = new ArrayList<>(List.of("_init_array", "_fini_array"));
  private final Map<String, int[]> dims = new LinkedHashMap<>();
  private final Map<String, int[]> regs = new LinkedHashMap<>();
  private State state = State.CODE;
  private int variables;
  private int indirectFunctions;
  private String kernelName;
  private int sgpr;
  private int vgpr;
  private long offset;

  private GcnAsmProcessor(Path file, GcnRelease release, boolean tableLabels) {
    this.file = file;
    this.release = release;
    this.tableLabels = tableLabels;
  }

  /** Processes assembly text as GCC 12 does (test convenience). */
  public static Result process(String asm) throws MalformedObjectException {
    return process(GcnRelease.GCC12, asm);
  }

  /** Processes assembly text as {@code release} does (test convenience). */
  public static Result process(GcnRelease release, String asm) throws MalformedObjectException {
    return process(release, asm.getBytes(StandardCharsets.ISO_8859_1), Path.of("<string>"));
  }

  /** Processes the bytes of {@code file} (the {@code .mkoffload.1.s}) as {@code release} does. */
  public static Result process(GcnRelease release, byte[] asm, Path file)
      throws MalformedObjectException {
    return process(release, asm, file, true);
  }

  /**
   * Processes as {@code release} does, but without the global table labels when {@code tableLabels}
   * is false: one partition's assembly of several linked into one HSACO ({@code --device-jobs}),
   * whose labels are defined once, at the start of the joint sections.
   */
  public static Result process(GcnRelease release, byte[] asm, Path file, boolean tableLabels)
      throws MalformedObjectException {
    return new GcnAsmProcessor(file, release, tableLabels)
        .run(pieces(new String(asm, StandardCharsets.ISO_8859_1)));
  }

  /** Splits like repeated {@code fgets(buf, 1000, f)}. */
  static List<String> pieces(String text) {
    List<String> lines = new ArrayList<>();
    int i = 0;
    while (i < text.length()) {
      int nl = text.indexOf('\n', i);
      int end = nl < 0 ? text.length() : nl + 1;
      end = Math.min(end, i + FGETS_MAX);
      lines.add(text.substring(i, end));
      i = end;
    }
    return lines;
  }

  private Result run(List<String> lines) throws MalformedObjectException {
    for (int n = 0; n < lines.size(); n++) {
      String buf = lines.get(n);
      if (state == State.VARS && Scanf.count(buf, " .8byte %ms\n") != 0) {
        out.append(buf);
        offset += buf.length();
        if (++n >= lines.size() || Scanf.count(lines.get(n), " .8byte %u\n") == 0) {
          throw bad("a '.8byte <size>' line after the offload variable '" + buf.trim() + "'");
        }
        buf = lines.get(n);
        variables++;
      } else if (state == State.FUNCS || state == State.IND_FUNCS) {
        Scanf.Result r = Scanf.scan(buf, "\t.8byte\t%ms\n");
        if (r.count() == 1) {
          if (state == State.FUNCS) {
            functions.add(r.values().get(0));
          } else {
            indirectFunctions++;
          }
        }
        if (r.count() != 0) {
          // GCC tests sscanf's result for non-zero, so a blank line (EOF, -1) is taken too
          if (release.keepsFunctionTables()) {
            out.append(buf);
          }
          offset += buf.length();
          continue;
        }
      } else {
        inState(buf);
      }
      transition(buf);
      if (state != State.FUNCS && state != State.IND_FUNCS) {
        out.append(buf);
      }
      offset += buf.length();
    }
    return new Result(
        out.toString().getBytes(StandardCharsets.ISO_8859_1),
        kernels(),
        variables,
        indirectFunctions);
  }

  private void inState(String buf) {
    if (state == State.CODE) {
      Scanf.Result r = Scanf.scan(buf, " ;; OPENACC-DIMS: %d, %d, %d : %ms\n");
      if (r.count() == 4) {
        int[] d = new int[3];
        for (int k = 0; k < 3; k++) {
          d[k] = Integer.parseInt(r.values().get(k));
        }
        dims.putIfAbsent(r.values().get(3), d);
      }
    } else if (state == State.METADATA) {
      Scanf.Result name = Scanf.scan(buf, " - .name: %ms\n");
      if (name.count() == 1) {
        kernelName = name.values().get(0);
        return;
      }
      Scanf.Result s = Scanf.scan(buf, " .sgpr_count: %d\n");
      if (s.count() == 1) {
        sgpr = Integer.parseInt(s.values().get(0));
        return;
      }
      Scanf.Result v = Scanf.scan(buf, " .vgpr_count: %d\n");
      if (v.count() == 1) {
        vgpr = Integer.parseInt(v.values().get(0));
      }
    }
  }

  private void transition(String buf) throws MalformedObjectException {
    if (Scanf.count(buf, " .section .gnu.offload_vars%c") > 0) {
      state = State.VARS;
      globalTable(buf, ".offload_var_table");
    } else if (Scanf.count(buf, " .section .gnu.offload_funcs%c") > 0) {
      state = State.FUNCS;
      if (release.keepsFunctionTables()) {
        globalTable(buf, ".offload_func_table");
      }
    } else if (release.layout().indirectFunctions()
        && Scanf.count(buf, " .section .gnu.offload_ind_funcs%c") > 0) {
      state = State.IND_FUNCS;
      globalTable(buf, ".offload_ind_func_table");
    } else if (Scanf.count(buf, " .amdgpu_metadata%c") > 0) {
      state = State.METADATA;
      kernelName = null;
      sgpr = -1;
      vgpr = -1;
    } else if (Scanf.count(buf, " .section %c") > 0
        || Scanf.count(buf, " .text%c") > 0
        || Scanf.count(buf, " .bss%c") > 0
        || Scanf.count(buf, " .data%c") > 0
        || Scanf.count(buf, " .ident %c") > 0) {
      state = State.CODE;
    } else if (Scanf.count(buf, " .end_amdgpu_metadata%c") > 0) {
      state = State.CODE;
      if (kernelName == null || sgpr < 0 || vgpr < 0) {
        throw bad(".name, .sgpr_count and .vgpr_count in the .amdgpu_metadata block");
      }
      regs.putIfAbsent(kernelName, new int[] {sgpr, vgpr});
    }
  }

  /** The section line, then a global label the plugin looks the table up by. */
  private void globalTable(String sectionLine, String label) {
    out.append(sectionLine);
    if (!tableLabels) {
      return;
    }
    out.append("\t.global ").append(label).append("\n\t.type ").append(label);
    out.append(", @object\n").append(label).append(":\n");
  }

  private List<GcnKernel> kernels() {
    List<GcnKernel> kernels = new ArrayList<>();
    for (String name : functions) {
      int[] d = dims.getOrDefault(name, new int[3]);
      int[] r = regs.getOrDefault(name, new int[2]);
      kernels.add(new GcnKernel(name, d[0], d[1], d[2], r[0], r[1]));
    }
    return kernels;
  }

  private MalformedObjectException bad(String expected) {
    return new MalformedObjectException(file, offset, "expected " + expected);
  }
}
