package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.CommandResult;

/**
 * Offload links with {@code -fuse-ld=bfd|gold|mold|lld}, stock against offlink's tree ({@code -B
 * <offlink>/libexec/offlink/}), for nvptx and amdgcn in one link, with and without host LTO, PIE
 * and non-PIE: GCC 12 on the host (bookworm: gold 2.40, mold 1.10.1, lld 14) and GCC 14 (trixie:
 * binutils-gold 2.44, mold 2.37.1, lld 19) and 16 (sid: binutils-gold 2.44, mold 3.0.0, lld 21) in
 * their Debian roots. The program has seven target regions and three {@code declare target}
 * variables in four translation units, so libgomp's pairing of the host tables with each image by
 * position shows in the spy's dump: every registration's host functions and variables must name the
 * image's, in order.
 *
 * <p>What the linkers do (docs/gcc-versions.md, "Linkers"): bfd and gold give correct tables and
 * offlink registers exactly what stock registers. mold appends the objects the linker plugin adds
 * after all inputs, so with {@code -flto} the LTRANS objects' table entries land after {@code
 * crtoffloadend.o}: stock links a program whose host table is empty (libgomp refuses it on a GPU),
 * offlink stops the link naming the workarounds. Without LTO, mold 1.10 never runs the plugin
 * (stock and offlink alike register nothing: lto-wrapper is not started); 2.37 and 3.0 give correct
 * tables. lld ignores GCC's linker plugin: no offload image without LTO (silently, stock and
 * offlink alike), and with {@code -flto} the link fails (lld cannot read GCC's IR).
 */
class LinkersIT {
  private static final List<String> LINKERS = List.of("bfd", "gold", "mold", "lld");

  /** Runs a command in a folder (a host path) of the environment. */
  private interface Shell {
    CommandResult run(Path dir, List<String> argv, Map<String, String> env) throws IOException;

    /** A host path as the commands see it. */
    String inside(Path hostPath);
  }

  /** Where the links run: the compilers, offlink's -B folder, the spy, extra environment. */
  private record Setup(
      Shell shell,
      Path work,
      String gcc,
      List<String> gcnArch,
      String offlinkTree,
      Map<String, String> offlinkEnv,
      String spy) {}

  @Test
  void gcc12OnTheHost(@TempDir Path work) throws IOException {
    for (String ld : List.of("ld.gold", "ld.mold", "ld.lld")) {
      if (!Files.isExecutable(Path.of("/usr/bin", ld))) {
        fail("/usr/bin/" + ld + " is missing (scripts/setup-toolchain.sh installs mold and lld)");
      }
    }
    LocalProcessRunner runner = new LocalProcessRunner();
    Shell host =
        new Shell() {
          @Override
          public CommandResult run(Path dir, List<String> argv, Map<String, String> env)
              throws IOException {
            Map<String, String> full = new HashMap<>(env);
            full.put("PATH", Toolchain.SAFE_PATH);
            full.put("LC_ALL", "C");
            return runner.run(Command.of(argv, full, dir));
          }

          @Override
          public String inside(Path hostPath) {
            return hostPath.toString();
          }
        };
    writeSources(work);
    checked(host.run(work, spyBuild("gcc-12"), Map.of()));
    Setup setup =
        new Setup(
            host,
            work,
            "gcc-12",
            List.of("-foffload-options=amdgcn-amdhsa=-march=gfx906"),
            Toolchain.offlinkDist().toString(),
            Map.of(),
            work.resolve("libspy.so").toString());
    matrix(setup, "gcc-12");
  }

  @ParameterizedTest(name = "gcc-{0}")
  @ValueSource(ints = {14, 16})
  void gccInItsDebianRoot(int major) throws IOException {
    Path root = DebianRoots.require(major);
    for (String ld : List.of("ld.gold", "ld.mold", "ld.lld")) {
      assumeTrue(
          Files.exists(root.resolve("usr/bin").resolve(ld)),
          "skipped GCC "
              + major
              + ": the root has no "
              + ld
              + " (chroot "
              + root
              + " apt-get install binutils-gold mold lld, or rebuild it with"
              + " scripts/setup-toolchain.sh --gcc "
              + major
              + ")");
    }
    try (DebianRoot r = DebianRoot.open(root)) {
      Shell chrooted =
          new Shell() {
            @Override
            public CommandResult run(Path dir, List<String> argv, Map<String, String> env)
                throws IOException {
              return r.runIn(dir, argv, env);
            }

            @Override
            public String inside(Path hostPath) {
              return r.inside(hostPath);
            }
          };
      writeSources(r.work());
      String tree = r.bindReadOnly(Toolchain.offlinkDist(), "offlink");
      String java = r.bindJdk(DebianRoots.javaHome());
      // 16 links the default gfx90a: Debian's 16 has no gfx906 libraries.
      List<String> arch =
          major >= 16 ? List.of() : List.of("-foffload-options=amdgcn-amdhsa=-march=gfx906");
      Setup setup =
          new Setup(
              chrooted,
              r.work(),
              "gcc-" + major,
              arch,
              tree,
              Map.of("OFFLINK_JAVA", java),
              r.buildSpy("gcc-" + major));
      matrix(setup, "gcc-" + major);
    }
  }

  /** Every linker, with and without -flto, PIE and (but lld) non-PIE: stock, then offlink. */
  private static void matrix(Setup s, String gcc) throws IOException {
    List<String> failures = new ArrayList<>();
    for (boolean lto : List.of(false, true)) {
      List<String> objects = compile(s, lto);
      for (String linker : LINKERS) {
        for (boolean pie : linker.equals("lld") ? List.of(true) : List.of(true, false)) {
          String name = linker + (lto ? "-lto" : "") + (pie ? "" : "-nopie");
          List<String> flags = new ArrayList<>(List.of("-fuse-ld=" + linker));
          if (!pie) {
            flags.add("-no-pie");
          }
          Outcome stock = link(s, name + "-stock", objects, flags, List.of(), Map.of());
          Outcome ours =
              link(
                  s,
                  name + "-offlink",
                  objects,
                  flags,
                  List.of("-B", s.offlinkTree() + "/libexec/offlink/"),
                  s.offlinkEnv());
          try {
            expect(linker, lto, stock, ours);
          } catch (AssertionError e) {
            failures.add(gcc + " " + name + ": " + e.getMessage());
          }
        }
      }
    }
    if (!failures.isEmpty()) {
      fail(String.join("\n\n", failures));
    }
  }

  private static void expect(String linker, boolean lto, Outcome stock, Outcome ours) {
    if (linker.equals("lld") && lto) {
      // lld cannot read GCC's LTO IR: both links fail, the same way.
      assertTrue(stock.link().exitStatus() != 0, "stock lld -flto linked");
      assertEquals(stock.link().stderr(), ours.link().stderr(), "lld -flto failure");
      return;
    }
    assertEquals(0, stock.link().exitStatus(), () -> "stock link:\n" + stock.link().stderr());
    assertEquals("31\n", stock.run().stdout(), "stock output");
    if (linker.equals("mold") && lto) {
      // Stock's tables are broken: the host table is empty, the images are not.
      for (Registration g : stock.dump().registered()) {
        assertEquals(0, g.hostFuncs(), () -> "stock mold -flto host table\n" + stock.spy());
        assertTrue(g.deviceFuncs().orElseThrow() > 0, () -> stock.spy());
      }
      assertEquals(2, stock.dump().registered().size(), stock.spy());
      assertTrue(ours.link().exitStatus() != 0, "offlink linked with mold -flto");
      assertTrue(
          ours.link()
              .stderr()
              .contains(
                  "lto-wrapper: fatal error: -fuse-ld=mold breaks the offload tables of this -flto"
                      + " link"),
          ours.link().stderr());
      return;
    }
    assertEquals(0, ours.link().exitStatus(), () -> "offlink link:\n" + ours.link().stderr());
    assertEquals(stock.run().stdout(), ours.run().stdout(), "output");
    assertEquals(stock.spy(), ours.spy(), "registrations");
    int expected = linker.equals("lld") ? 0 : 2;
    if (stock.dump().registered().isEmpty() && linker.equals("mold")) {
      expected = 0; // mold 1.10 runs no linker plugin for objects without host IR
    }
    assertEquals(expected, stock.dump().registered().size(), stock.spy());
    for (Registration g : stock.dump().registered()) {
      assertTablesLineUp(g);
    }
  }

  /**
   * libgomp pairs the i-th host function and variable with the image's i-th: the names must agree
   * in order (nvptx spells {@code .} as {@code $}; a gcn image lists {@code _init_array} and {@code
   * _fini_array} first and only counts its variables).
   */
  static void assertTablesLineUp(Registration g) {
    List<String> hostFuncs = g.names("host func");
    List<String> hostVars = g.names("host var");
    String where = String.join("\n", g.body());
    assertFalse(hostFuncs.isEmpty(), where);
    if (g.target().equals(java.util.Optional.of(OffloadTarget.NVPTX))) {
      List<String> funcs = g.names("nvptx func").stream().map(n -> n.replace('$', '.')).toList();
      assertEquals(hostFuncs, funcs, where);
      assertEquals(hostVars, g.names("nvptx var"), where);
    } else {
      List<String> kernels = g.names("gcn kernel");
      assertEquals(hostFuncs, kernels.subList(2, kernels.size()), where);
      assertEquals(hostVars.size(), g.deviceVars().orElseThrow(), where);
    }
  }

  /** One link and, when it succeeded, one run under the spy. */
  private record Outcome(CommandResult link, CommandResult run, String spy) {
    RegistrationDump dump() {
      return RegistrationDump.parse(spy);
    }
  }

  private static Outcome link(
      Setup s,
      String name,
      List<String> objects,
      List<String> flags,
      List<String> tools,
      Map<String, String> env)
      throws IOException {
    Path dir = Files.createDirectories(s.work().resolve(name));
    List<String> argv = new ArrayList<>(List.of(s.gcc()));
    argv.addAll(tools);
    argv.addAll(offloadFlags(s));
    argv.addAll(flags);
    argv.addAll(objects);
    argv.addAll(List.of("-o", "prog"));
    CommandResult link = s.shell().run(dir, argv, env);
    if (link.exitStatus() != 0) {
      return new Outcome(link, null, "");
    }
    CommandResult run =
        s.shell()
            .run(
                dir,
                List.of("./prog"),
                Map.of(
                    "LD_PRELOAD", s.spy(),
                    "OFFLINK_SPY_OUT", "spy.txt",
                    "OMP_TARGET_OFFLOAD", "DEFAULT"));
    assertEquals(0, run.exitStatus(), name + ": " + run.stderr());
    Path spy = dir.resolve("spy.txt");
    return new Outcome(link, run, Files.exists(spy) ? Files.readString(spy) : "");
  }

  private static List<String> offloadFlags(Setup s) {
    List<String> flags = new ArrayList<>(List.of("-O2", "-fopenmp"));
    flags.add("-foffload=nvptx-none,amdgcn-amdhsa");
    flags.addAll(s.gcnArch());
    return flags;
  }

  /** Compiles the four units (with -flto when {@code lto}); their paths as the links see them. */
  private static List<String> compile(Setup s, boolean lto) throws IOException {
    Path dir = Files.createDirectories(s.work().resolve(lto ? "obj-lto" : "obj"));
    List<String> objects = new ArrayList<>();
    for (String unit : List.of("tu_a", "tu_b", "tu_c", "main")) {
      List<String> argv = new ArrayList<>(List.of(s.gcc(), "-c"));
      argv.addAll(offloadFlags(s));
      if (lto) {
        argv.add("-flto");
      }
      String object = s.shell().inside(dir.resolve(unit + ".o"));
      argv.addAll(List.of(s.shell().inside(s.work().resolve(unit + ".c")), "-o", object));
      checked(s.shell().run(dir, argv, Map.of()));
      objects.add(object);
    }
    return objects;
  }

  /**
   * Three units with two target regions and a declare target variable each, and a main with one
   * more region; the program prints 31.
   */
  private static void writeSources(Path work) throws IOException {
    for (String t : List.of("a", "b", "c")) {
      Files.writeString(
          work.resolve("tu_" + t + ".c"),
          """
          int var_%1$s[8] = {1, 2, 3};
          #pragma omp declare target to(var_%1$s)
          int run_%1$s (int x)
          {
            int r1 = 0, r2 = 0;
          #pragma omp target map(tofrom: r1)
            r1 = x + var_%1$s[1];
          #pragma omp target map(tofrom: r2)
            r2 = x * var_%1$s[2];
            return r1 + r2;
          }
          """
              .formatted(t));
    }
    Files.writeString(
        work.resolve("main.c"),
        """
        #include <stdio.h>
        int run_a (int), run_b (int), run_c (int);
        int main (void)
        {
          int s = 0;
        #pragma omp target map(tofrom: s)
          s = 1;
          printf ("%d\\n", s + run_a (1) + run_b (2) + run_c (3));
          return 0;
        }
        """);
    try (var in = LinkersIT.class.getResourceAsStream("/interposer/gomp_register_spy.c")) {
      Files.write(work.resolve("gomp_register_spy.c"), in.readAllBytes());
    }
  }

  private static List<String> spyBuild(String gcc) {
    return List.of(
        gcc, "-O2", "-shared", "-fPIC", "-o", "libspy.so", "gomp_register_spy.c", "-ldl");
  }

  private static void checked(CommandResult r) {
    assertEquals(0, r.exitStatus(), () -> String.join(" ", r.argv()) + ":\n" + r.stderr());
  }
}
