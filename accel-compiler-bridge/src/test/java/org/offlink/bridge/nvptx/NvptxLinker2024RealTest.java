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
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.offlink.bridge.gcc.RealToolchain;
import org.offlink.bridge.process.CommandResult;

/**
 * {@link NvptxLinker2024} against the programs it reproduces, run on the same command lines and
 * files: Debian 13's {@code nvptx-none-ld} (nvptx-tools 0.20240810-3) in the GCC 14 root and sid's
 * (0.20260402-1) in the GCC 15 root that {@code scripts/setup-toolchain.sh --gcc V} builds, each
 * started through its root's own dynamic loader and libraries. Inputs: this machine's GCC 12 accel
 * compiler's PTX of an OpenMP program that calls into libc and libm, with the root's own libc,
 * libm, libgcc and libgomp; and small archives built with {@code ar} for the corners of the
 * resolution (the first definition wins, libraries in the sorted order of their paths, an archive
 * named as an input, weak and duplicate definitions, ignored and unresolved symbols, global
 * constructors).
 */
class NvptxLinker2024RealTest {
  static final Path ROOTS = Path.of("/var/cache/offlink/roots");

  @TempDir Path dir;

  /** A root's nvptx-none-ld and accel tool folder. */
  private record Root(Path path, int major) {
    Path ld() {
      return path.resolve("usr/bin/nvptx-none-ld");
    }

    Path tools() {
      return path.resolve("usr/lib/gcc/x86_64-linux-gnu/" + major + "/accel/nvptx-none");
    }

    /** The argv that runs the root's linker from outside the root. */
    List<String> ldArgv() {
      return List.of(
          path.resolve("lib64/ld-linux-x86-64.so.2").toString(),
          "--library-path",
          path.resolve("usr/lib/x86_64-linux-gnu") + ":" + path.resolve("lib/x86_64-linux-gnu"),
          ld().toString());
    }
  }

  private static Root root(int major) throws IOException {
    Root r = new Root(ROOTS.resolve("gcc-" + major), major);
    assumeTrue(
        Files.isRegularFile(r.path().resolve(".offlink-root-complete"))
            && Files.isRegularFile(r.ld()),
        "no GCC "
            + major
            + " root with nvptx-tools under "
            + ROOTS
            + " (scripts/setup-toolchain.sh --gcc "
            + major
            + " builds it)");
    assertEquals(
        Optional.of(NvptxLdVersion.TOOLS_2024),
        NvptxLinkerStandIn.knownLinker(r.ld()),
        r.ld() + " is a linker offlink reproduces");
    return r;
  }

  /** Both linkers on {@code args} in {@link #dir}: the real one's output, after checking ours. */
  private byte[] assertSameAsNvptxLd(Root root, List<String> args) throws Exception {
    CommandResult real = runReal(root, args, "real.ptx");
    assertEquals(0, real.exitStatus(), real.stderr());
    List<String> ours = new ArrayList<>(args);
    ours.set(ours.indexOf("OUT"), "ours.ptx");
    NvptxLdVersion.LinkedPtx linked =
        NvptxLdVersion.TOOLS_2024.link(ours, dir, Map.of(), NvptxLinker2024RealTest::read);
    assertEquals("ours.ptx", linked.output());
    byte[] expected = Files.readAllBytes(dir.resolve("real.ptx"));
    assertArrayEquals(
        expected, linked.ptx(), "the output differs from " + root.ld() + "'s: " + args);
    return expected;
  }

  private CommandResult runReal(Root root, List<String> args, String output) throws IOException {
    List<String> argv = new ArrayList<>(root.ldArgv());
    argv.addAll(args);
    if (argv.contains("OUT")) {
      argv.set(argv.indexOf("OUT"), output);
    }
    return RealToolchain.run(dir, RealToolchain.SAFE_PATH, argv);
  }

  /** Ours fails where the real one does (the caller then runs the real one). */
  private void assertBothFail(Root root, List<String> args, String realSays) throws Exception {
    CommandResult real = runReal(root, args, "real.ptx");
    assertNotEquals(0, real.exitStatus(), "the real linker accepted " + args);
    assertTrue(real.stderr().contains(realSays), real.stderr());
    List<String> ours = new ArrayList<>(args);
    ours.set(ours.indexOf("OUT"), "ours.ptx");
    assertThrows(
        NvptxLinker.Unsupported.class,
        () -> NvptxLdVersion.TOOLS_2024.link(ours, dir, Map.of(), NvptxLinker2024RealTest::read));
  }

  private static PtxArchive read(Path file) throws IOException, NvptxLinker.Unsupported {
    return PtxArchive.parse(file, Files.readAllBytes(file), NvptxLdVersion.TOOLS_2024);
  }

  private void write(String name, String text) throws IOException {
    NvptxLinkerRealTest.write(dir, name, text);
  }

  private void ar(String archive, String... members) throws IOException {
    NvptxLinkerRealTest.ar(dir, archive, members);
  }

  private static String def(String kind, String name) {
    return NvptxLinkerRealTest.def(kind, name);
  }

  private static String weakDef(String kind, String name) {
    return "// BEGIN GLOBAL " + kind + " DEF: " + name + "\n.weak .body " + name + "\n";
  }

  private static String decl(String kind, String name) {
    return NvptxLinkerRealTest.decl(kind, name);
  }

  @ParameterizedTest
  @ValueSource(ints = {14, 15})
  void theAccelCompilersPtxWithTheRootsLibrariesLinksAsNvptxLd(int major) throws Exception {
    Root root = root(major);
    NvptxLinkerRealTest.accelPtx(dir, "t.ptx.o");
    String mgomp = "-L" + root.tools().resolve("mgomp");
    String tools = "-L" + root.tools();
    // GCC's own link line (collect2's, from the accel driver), with -lm as -foffload=-lm adds it.
    byte[] out =
        assertSameAsNvptxLd(
            root,
            List.of(
                "-o", "OUT", mgomp, tools, "t.ptx.o", "-lm", "-lgomp", "-lgcc", "-lc", "-lgcc"));
    assertTrue(out.length > 100_000, "libc and libgomp members were linked in: " + out.length);
    // Options apart, inputs first (getopt permutes), the long options GCC's drivers may pass.
    assertSameAsNvptxLd(
        root,
        List.of(
            "t.ptx.o",
            "--hash-style=gnu",
            "-L",
            root.tools().resolve("mgomp").toString(),
            "-l",
            "gomp",
            "-lc",
            "-o",
            "OUT",
            "--hash-style",
            "sysv",
            "-lm",
            "-lgcc"));
  }

  @ParameterizedTest
  @ValueSource(ints = {14, 15})
  void definitionsOrderAndArchivesAsNvptxLd(int major) throws Exception {
    Root root = root(major);
    // main needs a (in two members: the first definition wins now) and b; a needs c; c needs d,
    // in another archive, found under a path that sorts first although named last; the odd-sized
    // member is padded; malloc is the linker's own.
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
    write("second.o", "second\n" + decl("FUNCTION", "d") + def("FUNCTION", "second"));
    ar("libone.a", "a1.o", "b.o", "c.o", "unused.o", "a2.o");
    Files.createDirectories(dir.resolve("0"));
    ar("0/libtwo.a", "d.o");
    byte[] out =
        assertSameAsNvptxLd(
            root, List.of("-o", "OUT", "-L.", "-L0", "main.o", "second.o", "-lone", "-ltwo"));
    String text = new String(out, StandardCharsets.ISO_8859_1);
    assertTrue(text.contains("one\n") && !text.contains("two\n") && !text.contains("never"), text);
    // Two libraries defining a: the one whose path sorts first wins, whatever the command
    // line's order.
    write("za.o", "from-z\n" + def("FUNCTION", "a") + decl("FUNCTION", "c"));
    ar("libz.a", "za.o", "c.o", "d.o");
    ar("liba.a", "a1.o", "c.o", "d.o", "b.o");
    byte[] sorted = assertSameAsNvptxLd(root, List.of("-o", "OUT", "-L.", "main.o", "-lz", "-la"));
    assertTrue(
        new String(sorted, StandardCharsets.ISO_8859_1).contains("one\n"),
        "liba.a's definition of a");
    // An archive named as an input joins the libraries; the same library twice is read once.
    assertSameAsNvptxLd(
        root, List.of("-o", "OUT", "-L.", "main.o", "libone.a", "0/libtwo.a", "-lone", "-lone"));
    // Empty archives are archives.
    Files.write(dir.resolve("libempty.a"), "!<arch>\n".getBytes(StandardCharsets.US_ASCII));
    assertSameAsNvptxLd(
        root, List.of("-o", "OUT", "-L.", "-L0", "main.o", "-lempty", "-lone", "-ltwo"));
  }

  @ParameterizedTest
  @ValueSource(ints = {14, 15})
  void weakDuplicateAndUnresolvedSymbolsAsNvptxLd(int major) throws Exception {
    Root root = root(major);
    // A weak definition linked first, the strong one linked for another symbol later: fine.
    write("main.o", "m\n" + decl("FUNCTION", "w") + decl("FUNCTION", "other"));
    write("weak.o", "weak\n" + weakDef("FUNCTION", "w"));
    write("strong.o", "strong\n" + def("FUNCTION", "w") + def("FUNCTION", "other"));
    ar("libws.a", "weak.o", "strong.o");
    assertSameAsNvptxLd(root, List.of("-o", "OUT", "-L.", "main.o", "-lws"));
    // Two strong definitions linked in: both programs refuse.
    write("first.o", "first\n" + def("FUNCTION", "w") + decl("FUNCTION", "other"));
    assertBothFail(
        root, List.of("-o", "OUT", "-L.", "first.o", "strong.o"), "multiple definitions");
    // The linker's own malloc defined again.
    write("malloc.o", "m\n" + def("FUNCTION", "malloc"));
    assertBothFail(root, List.of("-o", "OUT", "malloc.o"), "multiple definitions");
    // An unresolved symbol fails both, unless it is to be ignored.
    write("lost.o", "lost\n" + decl("FUNCTION", "nowhere") + def("FUNCTION", "here"));
    assertBothFail(root, List.of("-o", "OUT", "lost.o"), "unresolved symbol nowhere");
    assertSameAsNvptxLd(
        root, List.of("-o", "OUT", "--ignore-unresolved-symbol", "nowhere", "lost.o"));
    assertSameAsNvptxLd(root, List.of("-o", "OUT", "--ignore-unresolved-symbol=nowhere", "lost.o"));
    // A marker line the text ends in.
    write("cut.o", "cut\n" + def("FUNCTION", "x") + "// BEGIN GLOBAL FUNCTION DEF: y");
    assertBothFail(root, List.of("-o", "OUT", "cut.o"), "truncated marker line");
  }

  @ParameterizedTest
  @ValueSource(ints = {14, 15})
  void globalConstructorsAreLeftToTheRealProgram(int major) throws Exception {
    Root root = root(major);
    // With libgcc's trigger object about, a constructor makes the program write its table and
    // link the trigger in: not reproduced, so ours declines.
    write("main.o", "m\n" + def("FUNCTION", "_GLOBAL__I_00100_0_main") + def("FUNCTION", "main"));
    write("gbl.o", "gbl\n" + def("FUNCTION", "__trigger_gbl_ctors"));
    ar("libgbl.a", "gbl.o");
    List<String> args = List.of("-o", "OUT", "-L.", "main.o", "-lgbl");
    CommandResult real = runReal(root, args, "real.ptx");
    assertEquals(0, real.exitStatus(), real.stderr());
    String text = Files.readString(dir.resolve("real.ptx"), StandardCharsets.ISO_8859_1);
    assertTrue(text.contains("__CTOR_LIST__") && text.contains("gbl\n"), text);
    List<String> ours = new ArrayList<>(args);
    ours.set(ours.indexOf("OUT"), "ours.ptx");
    assertThrows(
        NvptxLinker.Unsupported.class,
        () -> NvptxLdVersion.TOOLS_2024.link(ours, dir, Map.of(), NvptxLinker2024RealTest::read));
    // Without the trigger (GCC 13 and 14's libgcc), the same program links as any other.
    assertSameAsNvptxLd(root, List.of("-o", "OUT", "main.o"));
  }
}
