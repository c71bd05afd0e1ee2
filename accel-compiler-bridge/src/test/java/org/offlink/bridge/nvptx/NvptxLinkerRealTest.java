package org.offlink.bridge.nvptx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.bridge.gcc.RealToolchain;
import org.offlink.bridge.process.CommandResult;

/**
 * {@link NvptxLinker} against the program it reproduces, Debian 12's {@code nvptx-none-ld}
 * (nvptx-tools 0.20220610-1), run on the same command lines and files: the accel compiler's own PTX
 * with the real libc, libm, libgcc and libgomp, and small archives built with {@code ar} for the
 * corners of its resolution (which definition wins, the order of each round, odd member sizes, a
 * symbol table member, unresolved symbols).
 */
class NvptxLinkerRealTest {
  static final Path TOOLS = Path.of("/usr/lib/gcc/x86_64-linux-gnu/12/accel/nvptx-none");
  static final Path LD = TOOLS.resolve("ld");

  @TempDir Path dir;

  @BeforeAll
  static void requireDebian12Linker() throws IOException {
    assumeTrue(
        Files.isRegularFile(LD)
            && NvptxLinkerStandIn.knownLinker(LD).equals(Optional.of(NvptxLdVersion.TOOLS_2022)),
        "Debian 12's nvptx-none-ld (nvptx-tools 0.20220610-1) is not installed at "
            + LD
            + ": NvptxLinker reproduces that program only");
  }

  /** Both linkers on {@code args} in {@link #dir}: the real one's output, after checking ours. */
  private byte[] assertSameAsNvptxLd(List<String> args) throws Exception {
    List<String> argv = new ArrayList<>(List.of(LD.toString()));
    argv.addAll(args);
    argv.set(argv.indexOf("OUT"), "real.ptx");
    CommandResult real = RealToolchain.run(dir, RealToolchain.SAFE_PATH, argv);
    assertEquals(0, real.exitStatus(), real.stderr());
    List<String> ours = new ArrayList<>(args);
    ours.set(ours.indexOf("OUT"), "ours.ptx");
    NvptxLinker.Arguments parsed = NvptxLinker.Arguments.parse(ours);
    assertEquals("ours.ptx", parsed.output());
    byte[] linked = NvptxLinker.link(parsed, dir, Map.of(), NvptxLinkerRealTest::read);
    byte[] expected = Files.readAllBytes(dir.resolve("real.ptx"));
    assertArrayEquals(expected, linked, "the output differs from nvptx-none-ld's: " + args);
    return expected;
  }

  private static PtxArchive read(Path file) throws IOException, NvptxLinker.Unsupported {
    return PtxArchive.parse(file, Files.readAllBytes(file));
  }

  private void write(String name, String text) throws IOException {
    write(dir, name, text);
  }

  /** Writes {@code text} to {@code dir/name}, one byte per char. */
  static void write(Path dir, String name, String text) throws IOException {
    Files.writeString(dir.resolve(name), text, StandardCharsets.ISO_8859_1);
  }

  private void ar(String archive, String... members) throws IOException {
    ar(dir, archive, members);
  }

  /** {@code ar rc archive members...} in {@code dir}. */
  static void ar(Path dir, String archive, String... members) throws IOException {
    List<String> argv = new ArrayList<>(List.of("ar", "rc", archive));
    argv.addAll(List.of(members));
    CommandResult r = RealToolchain.run(dir, RealToolchain.SAFE_PATH, argv);
    assertEquals(0, r.exitStatus(), r.stderr());
  }

  /** A marker line defining {@code name}, and a line of its body. */
  static String def(String kind, String name) {
    return "// BEGIN GLOBAL " + kind + " DEF: " + name + "\n.body " + name + "\n";
  }

  /** A marker line referring to {@code name}. */
  static String decl(String kind, String name) {
    return "// BEGIN GLOBAL " + kind + " DECL: " + name + "\n";
  }

  /**
   * Compiles an OpenMP program that calls into libc and libm (sin, strlen, snprintf, malloc, free)
   * with this machine's GCC 12 and its nvptx accel compiler, into the PTX object {@code name} in
   * {@code dir}: what the accel driver hands its linker.
   */
  static void accelPtx(Path dir, String name) throws IOException {
    String source =
        "#include <math.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n"
            + "int main(void){double a[64]; char s[32];\n"
            + "#pragma omp target teams distribute parallel for map(from:a)\n"
            + "for(int i=0;i<64;i++)a[i]=sin(i)+strlen(\"ab\");\n"
            + "#pragma omp target map(from:s)\n"
            + "{ snprintf(s, sizeof s, \"%d\", (int)a[3]); char *p = malloc(4); free(p); }\n"
            + "printf(\"%s\\n\", s); return 0;}\n";
    RealToolchain.compile(dir, "t", source, "-fopenmp", "-foffload=nvptx-none", "-O2");
    CommandResult c =
        RealToolchain.run(
            dir,
            RealToolchain.SAFE_PATH,
            List.of(
                "x86_64-linux-gnu-accel-nvptx-none-gcc-12",
                "-xlto",
                "-m64",
                "-mgomp",
                "t.o",
                "-fopenmp",
                "-foffload-abi=lp64",
                "-c",
                "-o",
                name));
    assertEquals(0, c.exitStatus(), c.stderr());
  }

  @Test
  void theAccelCompilersPtxWithGccsLibrariesLinksAsNvptxLd() throws Exception {
    accelPtx(dir, "t.ptx.o");
    String mgomp = "-L" + TOOLS.resolve("mgomp");
    String tools = "-L" + TOOLS;
    byte[] out =
        assertSameAsNvptxLd(
            List.of(
                "-o", "OUT", mgomp, tools, "t.ptx.o", "-lm", "-lgomp", "-lgcc", "-lc", "-lgcc"));
    assertTrue(out.length > 100_000, "libc and libgomp members were linked in: " + out.length);
    assertTrue(NvptxLinkerStandIn.KNOWN_LINKER_SIZES.contains(Files.size(LD)), "its size is known");
    // The same with the options spelled apart and the inputs before them (getopt permutes).
    assertSameAsNvptxLd(
        List.of(
            "t.ptx.o",
            "-L",
            TOOLS.resolve("mgomp").toString(),
            "-l",
            "gomp",
            "-lc",
            "-o",
            "OUT",
            "-lm",
            "-lgcc"));
  }

  @Test
  void definitionsRoundsAndMemberSizesAsNvptxLd() throws Exception {
    // main needs a (in two members: the later definition wins) and b; a needs c; c needs d, in
    // another archive; the odd-sized member is padded; malloc is the linker's own.
    write(
        "main.o",
        "head\n"
            + decl("FUNCTION", "a")
            + decl("VAR", "b")
            + decl("FUNCTION", "malloc")
            + def("FUNCTION", "main"));
    write("a1.o", "one\n" + def("FUNCTION", "a") + decl("FUNCTION", "c"));
    write("a2.o", "two\n" + def("FUNCTION", "a") + decl("FUNCTION", "c") + decl("VAR", "b"));
    write("b.o", "bee\n" + def("VAR", "b") + "odd");
    write("c.o", "sea\n" + def("FUNCTION", "c") + decl("FUNCTION", "d") + decl("FUNCTION", "a"));
    write("unused.o", "never\n" + def("FUNCTION", "unused"));
    write("d.o", "dee\n" + def("FUNCTION", "d"));
    ar("libone.a", "a1.o", "b.o", "c.o", "unused.o", "a2.o");
    ar("libtwo.a", "d.o");
    byte[] out = assertSameAsNvptxLd(List.of("-o", "OUT", "-L.", "main.o", "-ltwo", "-lone"));
    String text = new String(out, StandardCharsets.ISO_8859_1);
    assertTrue(text.contains("two\n") && !text.contains("one\n") && !text.contains("never"), text);
    // A symbol table first (GNU ar writes one for ELF members, "/" and a count of 0 here):
    // skipped by its size.
    ar("libplain.a", "d.o");
    byte[] plain = Files.readAllBytes(dir.resolve("libplain.a"));
    String header = String.format("%-16s%-12s%-6s%-6s%-8s%-10s`\n", "/", "0", "0", "0", "0", "4");
    byte[] withTable = new byte[plain.length + 64];
    System.arraycopy(plain, 0, withTable, 0, 8);
    System.arraycopy(header.getBytes(StandardCharsets.US_ASCII), 0, withTable, 8, 60);
    System.arraycopy(plain, 8, withTable, 72, plain.length - 8);
    Files.write(dir.resolve("libsym.a"), withTable);
    write("needs-d.o", "x\n" + decl("FUNCTION", "d"));
    assertSameAsNvptxLd(List.of("-o", "OUT", "-L.", "needs-d.o", "-lsym"));
  }

  @Test
  void anUnresolvedSymbolFailsBothAndAnUnknownOptionIsTheProgramsToReport() throws Exception {
    write("main.o", "x\n" + decl("FUNCTION", "nowhere"));
    CommandResult real =
        RealToolchain.run(
            dir, RealToolchain.SAFE_PATH, List.of(LD.toString(), "-o", "real.ptx", "main.o"));
    assertNotEquals(0, real.exitStatus());
    assertTrue(real.stderr().contains("unresolved symbol nowhere"), real.stderr());
    NvptxLinker.Arguments args = NvptxLinker.Arguments.parse(List.of("-o", "o.ptx", "main.o"));
    assertThrows(
        NvptxLinker.Unsupported.class,
        () -> NvptxLinker.link(args, dir, Map.of(), NvptxLinkerRealTest::read));
    for (String option : List.of("-v", "--version", "--hash-style=gnu", "-x")) {
      assertThrows(
          NvptxLinker.Unsupported.class,
          () -> NvptxLinker.Arguments.parse(List.of(option, "main.o")),
          option);
    }
  }
}
