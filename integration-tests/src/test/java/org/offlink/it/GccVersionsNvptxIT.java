package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.offlink.bridge.gcc.GccRelease;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.CommandResult;

/**
 * offlink against stock GCC 13, 14, 15 and 16 for nvptx (and nvptx + gfx906, 16: gfx9-generic, and
 * 16's configured default targets, nvptx + gfx90a), in the Debian roots of
 * scripts/setup-toolchain.sh --gcc V: each program is linked by stock {@code gcc-<V>} (the oracle)
 * and by {@code gcc-<V> -B <offlink>/libexec/offlink/} (offlink's tree and JDK bind-mounted
 * read-only into the root), both run with host fallback under the registration spy, and must give
 * the same exit status, output, stderr and registrations byte for byte (version word, requires
 * mask, indirect functions, PTX chunk digests, names, dims); offlink's program has no TEXTREL and
 * its link leaves nothing in its TMPDIR.
 *
 * <p>Which versions run: {@code OFFLINK_TEST_GCC_VERSIONS} (scripts/test.sh sets it after building
 * the roots; {@code 12} runs none of these) requires each listed version's root and fails without
 * it; unset, the versions whose roots exist run and the others are skipped with the command that
 * builds them.
 */
class GccVersionsNvptxIT {
  private static final Path SAXPY = Path.of("..", "examples", "saxpy.c");
  private static final String CORPUS = "/corpus/";

  /** One program: what it is called, the driver, flags and sources (files in the work folder). */
  private record Case(String name, String driver, List<String> args) {}

  private static List<Case> cases(int major) {
    String gcc = "gcc-" + major;
    List<String> nv = List.of("-O2", "-fopenmp", "-foffload=nvptx-none");
    // 13/14 default to sm_30, where reverse offload drops the image; sm_35 keeps it.
    List<String> sm35 =
        major <= 14 ? List.of("-foffload-options=nvptx-none=-march=sm_35") : List.of();
    List<String> indirect = major >= 14 ? List.of("-DINDIRECT") : List.of();
    List<Case> cases = new ArrayList<>();
    cases.add(new Case("saxpy-pie", gcc, concat(nv, List.of("saxpy.c"))));
    cases.add(new Case("saxpy-nopie", gcc, concat(nv, List.of("-no-pie", "saxpy.c"))));
    cases.add(new Case("saxpy-lto", gcc, concat(nv, List.of("-flto", "saxpy.c"))));
    cases.add(
        new Case(
            "requires", gcc, concat(nv, concat(sm35, concat(indirect, List.of("features.c"))))));
    cases.add(
        new Case(
            "requires-save-temps",
            gcc,
            concat(nv, concat(sm35, concat(indirect, List.of("-save-temps", "features.c"))))));
    cases.add(new Case("requires-default-arch", gcc, concat(nv, List.of("features.c"))));
    cases.add(new Case("usm", gcc, concat(nv, List.of("-no-pie", "usm.c"))));
    cases.add(new Case("cpp", "g++-" + major, concat(nv, List.of("templates.cpp"))));
    cases.add(new Case("fortran", "gfortran-" + major, concat(nv, List.of("target.f90"))));
    cases.add(
        new Case(
            "fortran-acc",
            "gfortran-" + major,
            List.of("-O2", "-fopenacc", "-foffload=nvptx-none", "acc.f90")));
    cases.add(
        new Case(
            "c-acc", gcc, List.of("-O2", "-fopenacc", "-foffload=nvptx-none", "-flto", "acc.c")));
    if (GccRelease.of(major).refusal(org.offlink.bridge.tool.OffloadTarget.AMDGCN).isEmpty()) {
      // Both targets through offlink's lto-wrapper, the images built in parallel in-process.
      cases.add(
          new Case(
              "both-targets",
              gcc,
              List.of(
                  "-O2",
                  "-fopenmp",
                  "-foffload=nvptx-none,amdgcn-amdhsa",
                  // Debian's 16 has no gfx906 libraries; gfx9-generic runs on gfx906.
                  "-foffload-options=amdgcn-amdhsa=-march="
                      + (major >= 16 ? "gfx9-generic" : "gfx906"),
                  "saxpy.c")));
    }
    if (major >= 16) {
      // gcc's configured default targets (no -foffload=): nvptx-none and amdgcn-amdhsa, the latter
      // for the default gfx90a; offlink must register both images as stock does.
      cases.add(new Case("default-targets", gcc, List.of("-O2", "-fopenmp", "saxpy.c")));
    }
    return cases;
  }

  /** Files copied into the work folder: name there, resource (or repository file). */
  private static final Map<String, String> SOURCES =
      Map.of(
          "templates.cpp", CORPUS + "cpp_templates/main.cpp",
          "target.f90", CORPUS + "f_target/main.f90",
          "acc.f90", CORPUS + "f_acc_parallel/main.f90",
          "acc.c", CORPUS + "c_acc_parallel/main.c");

  @ParameterizedTest(name = "gcc-{0}")
  @ValueSource(ints = {13, 14, 15, 16})
  void nvptxLinksRegisterExactlyWhatStockRegisters(int major) throws IOException {
    Path root = DebianRoots.require(major);
    try (DebianRoot r = DebianRoot.open(root)) {
      for (Map.Entry<String, String> e : SOURCES.entrySet()) {
        r.copyResource(e.getValue(), e.getKey());
      }
      // omp requires (TARGET_USED added by the compiler), a declare target variable and, with
      // -DINDIRECT, an indirect function; the program prints 41.
      Files.writeString(
          r.work().resolve("features.c"), StockGccVersionsIT.featuresProgram("reverse_offload"));
      Files.writeString(
          r.work().resolve("usm.c"), StockGccVersionsIT.featuresProgram("unified_shared_memory"));
      Files.copy(SAXPY, r.work().resolve("saxpy.c"));
      String tree = r.bindReadOnly(Toolchain.offlinkDist(), "offlink");
      String java = r.bindJdk(DebianRoots.javaHome());
      String spy = r.buildSpy("gcc-" + major);
      List<String> failures = new ArrayList<>();
      for (Case c : cases(major)) {
        Outcome stock = build(r, c, "stock", List.of(), Map.of(), spy);
        Outcome ours =
            build(
                r,
                c,
                "ours",
                List.of("-B", tree + "/libexec/offlink/"),
                Map.of("OFFLINK_JAVA", java),
                spy);
        compare(major, c, stock, ours, r).ifPresent(failures::add);
      }
      if (!failures.isEmpty()) {
        fail("gcc-" + major + ":\n" + String.join("\n", failures));
      }
    }
  }

  /** What one build and run gave. */
  private record Outcome(
      CommandResult link, CommandResult run, String spy, Path program, List<String> leftovers) {}

  private static Outcome build(
      DebianRoot r, Case c, String who, List<String> extra, Map<String, String> env, String spy)
      throws IOException {
    Path dir = Files.createDirectories(r.work().resolve(who).resolve(c.name()));
    Path tmp = Files.createDirectories(dir.resolve("tmp"));
    List<String> argv = new ArrayList<>();
    argv.add(c.driver());
    argv.addAll(extra);
    for (String a : c.args()) {
      argv.add(a.contains(".") && !a.startsWith("-") ? "../../" + a : a);
    }
    argv.addAll(List.of("-o", "prog"));
    Map<String, String> linkEnv = new java.util.HashMap<>(env);
    linkEnv.put("TMPDIR", r.inside(tmp));
    CommandResult link = r.runIn(dir, argv, linkEnv);
    List<String> leftovers;
    try (Stream<Path> s = Files.list(tmp)) {
      leftovers = s.map(p -> p.getFileName().toString()).sorted().toList();
    }
    if (link.exitStatus() != 0) {
      return new Outcome(link, null, "", dir.resolve("prog"), leftovers);
    }
    CommandResult run =
        r.runIn(
            dir,
            List.of("./prog"),
            Map.of(
                "LD_PRELOAD", spy,
                "OFFLINK_SPY_OUT", "spy.txt",
                "OMP_TARGET_OFFLOAD", "DEFAULT"));
    Path spyFile = dir.resolve("spy.txt");
    String dump = Files.exists(spyFile) ? Files.readString(spyFile) : "";
    return new Outcome(link, run, dump, dir.resolve("prog"), leftovers);
  }

  private static java.util.Optional<String> compare(
      int major, Case c, Outcome stock, Outcome ours, DebianRoot r) throws IOException {
    String what = c.name() + ": ";
    if (stock.link().exitStatus() != 0) {
      return java.util.Optional.of(what + "stock link failed:\n" + stock.link().stderr());
    }
    if (ours.link().exitStatus() != 0) {
      return java.util.Optional.of(what + "offlink link failed:\n" + ours.link().stderr());
    }
    try {
      assertEquals(stock.link().stderr(), ours.link().stderr(), what + "link stderr");
      assertEquals(stock.run().exitStatus(), ours.run().exitStatus(), what + "exit status");
      assertEquals(stock.run().stdout(), ours.run().stdout(), what + "stdout");
      assertEquals(stock.spy(), ours.spy(), what + "registrations (spy)");
      boolean dropped = c.name().equals("requires-default-arch") && major <= 14;
      if (dropped) {
        // sm_30 with reverse offload: GCC's warning, an empty wrapper, no registration.
        assertTrue(ours.link().stderr().contains("requires at least 'sm_35'"), what);
        assertFalse(ours.spy().contains("register version="), what + ours.spy());
      } else {
        String word = major == 13 ? "0x20001" : "0x30001";
        assertTrue(ours.spy().contains("register version=" + word), what + ours.spy());
      }
      assertEquals(List.of(), ours.leftovers(), what + "files left in TMPDIR");
      if (c.name().endsWith("save-temps")) {
        // The wrapper object offlink writes directly has stock's data objects, names and sizes.
        assertEquals(
            dataObjects(r, stock.program()), dataObjects(r, ours.program()), what + "wrapper");
      }
      String dynamic = host(r, List.of("readelf", "-d", "-W", ours.program().toString()));
      assertFalse(dynamic.contains("TEXTREL"), what + "TEXTREL in offlink's program");
    } catch (AssertionError e) {
      return java.util.Optional.of(e.getMessage());
    }
    return java.util.Optional.empty();
  }

  /** {@code name size} of every OBJECT symbol of the kept wrapper object beside {@code prog}. */
  private static List<String> dataObjects(DebianRoot r, Path program) throws IOException {
    Path wrapper = program.resolveSibling("prog.xnvptx-none.o");
    List<String> out = new ArrayList<>();
    for (String line : host(r, List.of("readelf", "-sW", wrapper.toString())).split("\n")) {
      String[] f = line.trim().split("\\s+");
      if (f.length >= 8 && f[3].equals("OBJECT")) {
        out.add(f[7] + " " + f[2]);
      }
    }
    out.sort(null);
    assertFalse(out.isEmpty(), "no data objects in " + wrapper);
    return out;
  }

  private static String host(DebianRoot r, List<String> argv) throws IOException {
    CommandResult res =
        new LocalProcessRunner()
            .runChecked(Command.of(argv, Map.of("PATH", Toolchain.SAFE_PATH), r.work()));
    return res.stdout();
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }
}
