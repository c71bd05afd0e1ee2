package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.CommandResult;
import org.offlink.streamer.inspect.PtxChunk;

/**
 * Checks of a device image by the tools its runtime's own loaders stand for: nvptx images are
 * compiled and linked by CUDA's {@code ptxas -c} and {@code nvlink} as the driver's JIT linker
 * links an image's chunks ({@code cuLinkAddData}), so an unresolved or doubly defined symbol fails
 * here; gcn HSACOs are read with LLVM's {@code llvm-objdump}/{@code llvm-readelf} for each kernel's
 * symbol, descriptor ({@code <kernel>.kd}) and metadata entry, and for the variables the {@code
 * .offload_var_table} lists, in order. The device tables of {@code declare target indirect}
 * functions (GCC 14+) are read from both kinds of image.
 */
final class DeviceCode {
  /** CUDA 13's tools on this machine; GCC 12's sm_30 PTX compiles for a newer -arch. */
  static final Path PTXAS = Path.of("/usr/local/bin/ptxas");

  static final Path NVLINK = Path.of("/usr/local/bin/nvlink");

  /** The LLVM of Debian 12's gcn offload toolchain. */
  static final Path LLVM = Path.of("/usr/lib/llvm-13/bin");

  private static final String PTX_ARCH = "sm_75";

  private DeviceCode() {}

  /** Whether CUDA's ptxas and nvlink are there. */
  static boolean cudaPresent() {
    return Files.isExecutable(PTXAS) && Files.isExecutable(NVLINK);
  }

  /** Whether LLVM's objdump and readelf are there. */
  static boolean llvmPresent() {
    return Files.isExecutable(LLVM.resolve("llvm-objdump"))
        && Files.isExecutable(LLVM.resolve("llvm-readelf"));
  }

  /** Compiles every chunk with {@code ptxas -c} and links them all with {@code nvlink}. */
  static void assertPtxLinks(String what, List<PtxChunk> chunks, Path dir) throws IOException {
    Files.createDirectories(dir);
    List<String> link = new ArrayList<>(List.of(NVLINK.toString(), "-arch=" + PTX_ARCH));
    for (PtxChunk c : chunks) {
      Path ptx = dir.resolve("chunk" + c.index() + ".ptx");
      // the registered bytes end with the NUL the CUDA API wants; ptxas wants text
      byte[] text = c.registered();
      int n = text.length > 0 && text[text.length - 1] == 0 ? text.length - 1 : text.length;
      Files.write(ptx, java.util.Arrays.copyOf(text, n));
      Path cubin = dir.resolve("chunk" + c.index() + ".cubin");
      CommandResult r =
          run(
              List.of(
                  PTXAS.toString(),
                  "-c",
                  "-arch=" + PTX_ARCH,
                  ptx.toString(),
                  "-o",
                  cubin.toString()),
              dir);
      assertEquals(
          0,
          r.exitStatus(),
          () -> what + ": ptxas rejected chunk " + c.index() + ": " + r.stderr());
      link.add(cubin.toString());
    }
    link.addAll(List.of("-o", dir.resolve("linked.cubin").toString()));
    CommandResult r = run(link, dir);
    assertEquals(0, r.exitStatus(), () -> what + ": nvlink: " + r.stderr());
  }

  /**
   * Asserts that {@code hsaco} has, for every kernel named, its function symbol, its global kernel
   * descriptor {@code <name>.kd} and an AMDGPU metadata entry naming both; returns the names of the
   * variables {@code .offload_var_table} points to, in table order (empty when it has none).
   */
  static List<String> assertKernelsAndVarTable(
      String what, byte[] hsaco, List<String> kernels, Path dir) throws IOException {
    Files.createDirectories(dir);
    Path file = dir.resolve("image.hsaco");
    Files.write(file, hsaco);
    Map<String, long[]> symbols = symbols(file, dir);
    String notes = tool("llvm-readelf", List.of("--notes", file.toString()), dir);
    for (String k : kernels) {
      if (k.equals("_init_array") || k.equals("_fini_array")) {
        continue;
      }
      assertTrue(symbols.containsKey(k), () -> what + ": no symbol for kernel " + k);
      assertTrue(
          symbols.containsKey(k + ".kd"), () -> what + ": no kernel descriptor " + k + ".kd");
      assertTrue(
          notes.contains(".name:           " + k + "\n") || notes.contains(".name: " + k + "\n"),
          () -> what + ": no metadata .name for " + k);
      assertTrue(notes.contains(k + ".kd"), () -> what + ": no metadata .symbol " + k + ".kd");
    }
    return varTable(file, symbols, dir);
  }

  /** name -> {value, size} of every defined symbol ({@code llvm-objdump -t}). */
  private static Map<String, long[]> symbols(Path file, Path dir) throws IOException {
    Map<String, long[]> out = new HashMap<>();
    Pattern line =
        Pattern.compile("^([0-9a-f]{16}) .{7} (\\S+)\\s+([0-9a-f]{16}) (?:\\S+ )?(\\S+)$");
    for (String l : tool("llvm-objdump", List.of("-t", file.toString()), dir).lines().toList()) {
      Matcher m = line.matcher(l);
      if (m.matches() && !m.group(2).equals("*UND*")) {
        out.putIfAbsent(
            m.group(4),
            new long[] {
              Long.parseUnsignedLong(m.group(1), 16), Long.parseUnsignedLong(m.group(3), 16)
            });
      }
    }
    return out;
  }

  /** The variables the table's R_AMDGPU_RELATIVE64 entries (address, size) point to, in order. */
  private static List<String> varTable(Path file, Map<String, long[]> symbols, Path dir)
      throws IOException {
    return table(file, symbols, dir, ".offload_var_table", 16);
  }

  /**
   * The functions the HSACO's {@code .offload_ind_func_table} (one address per entry, defined by
   * gcn mkoffload, gcc/config/gcn/mkoffload.cc@14) points to, in order; empty when it has none.
   */
  static List<String> gcnIndirectTable(byte[] hsaco, Path dir) throws IOException {
    Files.createDirectories(dir);
    Path file = dir.resolve("indirect.hsaco");
    Files.write(file, hsaco);
    return table(file, symbols(file, dir), dir, ".offload_ind_func_table", 8);
  }

  private static final Pattern PTX_INDIRECT_TABLE =
      Pattern.compile("\\$offload_ind_func_table\\[\\] = \\{([^}]*)\\}");

  /**
   * The functions of the nvptx image's {@code $offload_ind_func_table} initializer, which nvptx
   * mkoffload writes into a chunk of its own (gcc/config/nvptx/mkoffload.cc@14), in order; empty
   * when no chunk defines it.
   */
  static List<String> ptxIndirectTable(List<PtxChunk> chunks) {
    for (PtxChunk c : chunks) {
      Matcher m =
          PTX_INDIRECT_TABLE.matcher(
              new String(c.text(), java.nio.charset.StandardCharsets.ISO_8859_1));
      if (m.find()) {
        return m.group(1).isBlank() ? List.of() : List.of(m.group(1).split(","));
      }
    }
    return List.of();
  }

  /**
   * The symbols the {@code label} table's R_AMDGPU_RELATIVE64 entries, {@code stride} bytes apart,
   * point to, in order.
   */
  private static List<String> table(
      Path file, Map<String, long[]> symbols, Path dir, String label, int stride)
      throws IOException {
    long[] table = symbols.get(label);
    if (table == null) {
      return List.of();
    }
    Map<Long, String> byAddress = new HashMap<>();
    symbols.forEach(
        (name, v) -> {
          if (v[1] > 0 && !name.startsWith(label)) {
            byAddress.putIfAbsent(v[0], name);
          }
        });
    Map<Long, Long> relocations = new HashMap<>();
    Pattern rel = Pattern.compile("^([0-9a-f]{16})\\s+\\S+\\s+R_AMDGPU_RELATIVE64\\s+([0-9a-f]+)$");
    for (String l : tool("llvm-readelf", List.of("-rW", file.toString()), dir).lines().toList()) {
      Matcher m = rel.matcher(l.strip());
      if (m.matches()) {
        relocations.put(
            Long.parseUnsignedLong(m.group(1), 16), Long.parseUnsignedLong(m.group(2), 16));
      }
    }
    List<String> names = new ArrayList<>();
    for (long at = table[0]; relocations.containsKey(at); at += stride) {
      names.add(Optional.ofNullable(byAddress.get(relocations.get(at))).orElse("?"));
    }
    return names;
  }

  private static String tool(String name, List<String> args, Path dir) throws IOException {
    List<String> argv = new ArrayList<>(List.of(LLVM.resolve(name).toString()));
    argv.addAll(args);
    CommandResult r = run(argv, dir);
    assertEquals(0, r.exitStatus(), () -> name + ": " + r.stderr());
    return r.stdout();
  }

  private static CommandResult run(List<String> argv, Path dir) throws IOException {
    return new LocalProcessRunner().run(Command.of(argv, Map.of("PATH", Toolchain.SAFE_PATH), dir));
  }
}
