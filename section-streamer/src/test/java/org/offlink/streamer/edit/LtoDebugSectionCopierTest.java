package org.offlink.streamer.edit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.runtime.LinkScope;
import org.offlink.streamer.elf.ElfFile;
import org.offlink.streamer.elf.ElfReader;
import org.offlink.streamer.elf.ElfSection;
import org.offlink.streamer.elf.SectionType;
import org.offlink.streamer.testing.Toolchain;

/**
 * The early debug objects equal, byte for byte, those stock GCC 12's lto-wrapper writes with {@code
 * -save-temps} ({@code <input>.debug.temp.o}) for the same inputs.
 */
class LtoDebugSectionCopierTest {
  private static final LinkScope SCOPE = LinkScope.withUmask(022);

  @TempDir Path tmp;

  private static final String CXX =
      """
      #include <cstdio>
      #include <vector>
      template <typename T> T sum (const std::vector<T> &v) { T s = 0; for (T x : v) s += x; return s; }
      inline int twice (int x) { return 2 * x; }
      int main () {
        std::vector<int> v (10, 1);
        int s = 0;
      #pragma omp target map(tofrom: s)
        for (int i = 0; i < 10; i++) s += twice (i);
        std::printf ("%d %d\\n", s, sum (v));
        return 0;
      }
      """;

  /** Compiles {@code source} with {@code flags}, then links it with stock GCC and -save-temps. */
  private Path stockLink(String driver, String name, String source, List<String> flags)
      throws Exception {
    Files.writeString(tmp.resolve(name), source);
    List<String> compile = new ArrayList<>(List.of(driver, "-c", name));
    compile.addAll(flags);
    Toolchain.check(tmp, compile);
    return tmp.resolve(name.substring(0, name.indexOf('.')) + ".o");
  }

  private void link(String driver, List<String> args) throws Exception {
    List<String> argv = new ArrayList<>(List.of(driver, "-save-temps"));
    argv.addAll(args);
    Toolchain.check(tmp, argv);
  }

  private byte[] ours(Path input, long offset, boolean rename) throws Exception {
    Path out = tmp.resolve("ours.o");
    Files.deleteIfExists(out);
    long length = Files.size(input) - offset;
    assertTrue(LtoDebugSectionCopier.copy(SCOPE, input, offset, length, out, rename));
    return Files.readAllBytes(out);
  }

  @Test
  void offloadObjectCopyIsStocksByteForByte() throws Exception {
    List<String> flags = List.of("-O2", "-g", "-flto", "-fopenmp", "-foffload=nvptx-none");
    Path obj = stockLink("gcc-12", "x.c", Toolchain.OFFLOAD_C, flags);
    List<String> args = new ArrayList<>(flags);
    args.addAll(List.of("x.o", "-o", "x"));
    link("gcc-12", args);
    Path stock = tmp.resolve("x.o.debug.temp.o");
    assertArrayEquals(Files.readAllBytes(stock), ours(obj, 0, true));
    assertEquals(
        Files.getPosixFilePermissions(stock),
        Files.getPosixFilePermissions(tmp.resolve("ours.o")),
        "a new copy gets stock's mode (0777 less the umask)");
    try (ElfFile copy = ElfReader.read(tmp.resolve("ours.o"))) {
      assertTrue(copy.section(".debug_info").isPresent());
      assertTrue(copy.sectionsWithPrefix(".gnu.").isEmpty(), "no LTO or offload section copied");
    }
  }

  @Test
  void cxxGroupsAndMacrosMatchStock() throws Exception {
    List<String> flags = List.of("-O2", "-g3", "-flto", "-fopenmp", "-foffload=disable");
    Path obj = stockLink("g++-12", "t.cc", CXX, flags);
    List<String> args = new ArrayList<>(flags);
    args.addAll(List.of("t.o", "-o", "t"));
    link("g++-12", args);
    byte[] ours = ours(obj, 0, true);
    assertArrayEquals(Files.readAllBytes(tmp.resolve("t.o.debug.temp.o")), ours);
    try (ElfFile copy = ElfReader.read(tmp.resolve("ours.o"))) {
      assertTrue(copy.section(".debug_macro").isPresent());
      assertTrue(
          copy.sections().stream().anyMatch(s -> s.type() == SectionType.GROUP),
          "COMDAT groups of kept sections survive");
    }
  }

  @Test
  void relocatableLinkKeepsTheLtoNames() throws Exception {
    List<String> flags = List.of("-g", "-flto");
    Path obj = stockLink("g++-12", "t.cc", CXX, flags);
    List<String> args = new ArrayList<>(flags);
    args.addAll(List.of("-r", "t.o", "-o", "r.o"));
    link("g++-12", args);
    assertArrayEquals(Files.readAllBytes(tmp.resolve("t.o.debug.temp.o")), ours(obj, 0, false));
    try (ElfFile copy = ElfReader.read(tmp.resolve("ours.o"))) {
      assertTrue(copy.section(LtoDebugSectionCopier.EARLY_DEBUG_INFO).isPresent());
      assertTrue(copy.section(".debug_info").isEmpty());
    }
  }

  @Test
  void archiveMemberIsReadAtItsOffset() throws Exception {
    List<String> flags = List.of("-g", "-O1", "-flto");
    stockLink("gcc-12", "x.c", "int main (void) { return 0; }\n", flags);
    Toolchain.check(tmp, List.of("ar", "rcs", "libx.a", "x.o"));
    List<String> args = new ArrayList<>(flags);
    args.addAll(List.of("-o", "x", "-Wl,--whole-archive", "libx.a", "-Wl,--no-whole-archive"));
    link("gcc-12", args);
    List<Path> made;
    try (var files = Files.list(tmp)) {
      made = files.filter(p -> p.getFileName().toString().startsWith("libx.a@0x")).toList();
    }
    assertEquals(1, made.size(), "stock names the copy <archive>@0x<offset>.debug.temp.o");
    String name = made.get(0).getFileName().toString();
    long offset = Long.parseLong(name.substring("libx.a@0x".length(), name.indexOf(".debug")), 16);
    assertArrayEquals(Files.readAllBytes(made.get(0)), ours(tmp.resolve("libx.a"), offset, true));
  }

  @Test
  void noEarlyDebugInfoWritesNothing() throws Exception {
    Path obj = stockLink("gcc-12", "x.c", Toolchain.OFFLOAD_C, List.of("-flto", "-fopenmp"));
    Path out = tmp.resolve("none.o");
    assertFalse(LtoDebugSectionCopier.copy(SCOPE, obj, 0, Files.size(obj), out, true));
    Path text = Files.writeString(tmp.resolve("notes.txt"), "not an object\n");
    assertFalse(LtoDebugSectionCopier.copy(SCOPE, text, 0, Files.size(text), out, true));
    assertFalse(LtoDebugSectionCopier.copy(SCOPE, tmp.resolve("missing.o"), 0, 0, out, true));
    assertFalse(Files.exists(out));
  }

  @Test
  void namesFollowLibiberty() {
    assertEquals(".debug_info", LtoDebugSectionCopier.keptName(".gnu.debuglto_.debug_info", true));
    assertEquals(
        ".rela.debug_line", LtoDebugSectionCopier.keptName(".rela.gnu.debuglto_.debug_line", true));
    assertEquals(
        ".rela.gnu.debuglto_.debug_line",
        LtoDebugSectionCopier.keptName(".rela.gnu.debuglto_.debug_line", false));
    assertEquals(".debug_str", LtoDebugSectionCopier.keptName(".gnu.lto_.debug_str", true));
    assertEquals(".comment", LtoDebugSectionCopier.keptName(".comment", false));
    assertEquals(".note.GNU-stack", LtoDebugSectionCopier.keptName(".note.GNU-stack", true));
    assertNull(LtoDebugSectionCopier.keptName(".gnu.lto_.decls.1234", true));
    assertNull(LtoDebugSectionCopier.keptName(".text", true));
    assertNull(LtoDebugSectionCopier.keptName(".symtab", true));
  }

  @Test
  void keptSectionsAreRenumberedAndLinked() throws Exception {
    Path obj = stockLink("g++-12", "t.cc", CXX, List.of("-g", "-flto"));
    byte[] copy = ours(obj, 0, true);
    assertTrue(copy.length > 0);
    try (ElfFile elf = ElfReader.read(tmp.resolve("ours.o"))) {
      for (ElfSection s : elf.sections()) {
        assertTrue(s.index() == 0 || s.type() != SectionType.NULL, "no SHT_NULL placeholder");
        assertEquals(0, s.flags() & 0x80000000L, s.name() + " keeps no SHF_EXCLUDE");
        if (s.type() == SectionType.RELA) {
          assertEquals(SectionType.SYMTAB, elf.section(s.link()).type());
          assertEquals(s.name().substring(".rela".length()), elf.section(s.info()).name());
        }
      }
      assertTrue(
          elf.symbols().stream().noneMatch(sym -> sym.name().startsWith("__gnu_lto")),
          "LTO marker symbols are gone");
    }
  }
}
