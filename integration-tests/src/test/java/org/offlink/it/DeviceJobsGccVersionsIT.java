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
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.offlink.bridge.process.CommandResult;
import org.offlink.streamer.inspect.GcnTargetData;
import org.offlink.streamer.inspect.NvptxTargetData;
import org.offlink.streamer.inspect.RegisteredImage;

/**
 * {@code OFFLINK_FLAGS=--device-jobs=2} (issue 29) with GCC 13-16 in their Debian roots, for what
 * the GCC 12 corpus of {@link DeviceJobsIT} cannot have: {@code declare target indirect} functions
 * (14+) in three units, each unit its own partition, and OpenMP {@code requires} masks (13+).
 *
 * <p>{@code indirect}: each unit defines indirect functions (nvptx and gcn in one link); the
 * partitions' tables must register what stock registers (the spy: names, order, counts, the
 * indirect-function count and requires mask; not the image bytes), the program must print what
 * stock's prints, and the device's own indirect-function table, which the runtime indexes with the
 * host table's positions, must list the host table's functions in its order: nvptx's {@code
 * $offload_ind_func_table} chunk, gcn's {@code .offload_ind_func_table}. The PTX must pass CUDA's
 * {@code ptxas} and {@code nvlink} where they are installed.
 *
 * <p>{@code requires}: {@code requires unified_shared_memory} in two units but not in the third,
 * which has no target construct, only declare target data and functions. GCC 13 and 14 stream no
 * mask for that unit, and the whole program links; 15 and 16 stream 0x200 for it, and their
 * whole-program {@code lto1} refuses the program (measured with Debian's 13.3, 14.2, 15.3 and
 * 16.2). Either way no partition of it can stand for the whole program: offlink must compile the
 * whole program, say why under {@code -v}, and end as stock does: stock's image byte for byte, or
 * the same error.
 */
class DeviceJobsGccVersionsIT {
  private static final String MAIN =
      """
      #include <stdio.h>
      REQUIRES
      int thrice (int), add1 (int), fivefold (int), sub1 (int), u1_kernel (int);
      int twice (int x) { return 2 * x; }
      #pragma omp declare target INDIRECT enter(twice)
      int gv[4] = {0, 1, 2, 3};
      #pragma omp declare target enter(gv)
      int main (void)
      {
        int (*fps[5]) (int) = { twice, thrice, add1, fivefold, sub1 };
        int out[5];
        #pragma omp target map(from: out) map(to: fps)
        for (int i = 0; i < 5; i++)
          out[i] = fps[i] (10 + gv[1]);
        for (int i = 0; i < 5; i++)
          printf ("%d ", out[i]);
        printf ("%d\\n", u1_kernel (1));
        return 0;
      }
      """;

  /** A unit with a target region, a static declare target variable and two indirect functions. */
  private static final String UNIT1 =
      """
      REQUIRES
      static int scale = 3;
      #pragma omp declare target enter(scale)
      static int hidden (int x) { return x + 100; }
      int thrice (int x) { return scale * x; }
      #pragma omp declare target INDIRECT enter(thrice)
      int add1 (int x) { return x + 1; }
      #pragma omp declare target INDIRECT enter(add1)
      int u1_kernel (int x)
      {
        int r = 0;
        #pragma omp target map(from: r)
        r = hidden (x);
        return r;
      }
      """;

  /**
   * A unit with no target construct: declare target data and indirect functions only, and never a
   * requires clause.
   */
  private static final String UNIT2 =
      """
      static int factor = 5;
      #pragma omp declare target enter(factor)
      int fivefold (int x) { return factor * x; }
      #pragma omp declare target INDIRECT enter(fivefold)
      int sub1 (int x) { return x - 1; }
      #pragma omp declare target INDIRECT enter(sub1)
      """;

  private static final String OUTPUT = "22 33 12 55 10 101\n";

  /** Each target's -v line on the mask rule's verdict (DevicePartitioning, RequiresMasks). */
  private static final Pattern WHOLE_PROGRAM =
      Pattern.compile(
          "mkoffload: device partitions: OpenMP requires mask.*; compiling the whole program$");

  @ParameterizedTest(name = "gcc-{0}")
  @ValueSource(ints = {13, 14, 15, 16})
  void partitionsKeepIndirectTablesAndRequiresMasks(int major) throws IOException {
    Path root = DebianRoots.require(major);
    try (DebianRoot r = DebianRoot.open(root)) {
      String tree = r.bindReadOnly(Toolchain.offlinkDist(), "offlink");
      String java = r.bindJdk(DebianRoots.javaHome());
      String spy = r.buildSpy("gcc-" + major);
      boolean indirect = major >= 14;
      // Debian's 16 has no gfx906 libraries; its default device is gfx90a.
      List<String> targets =
          List.of(
              "-foffload=nvptx-none,amdgcn-amdhsa",
              "-foffload-options=amdgcn-amdhsa=-march=" + (major >= 16 ? "gfx90a" : "gfx906"));

      Path plain = sources(r, "indirect", "", indirect);
      compile(r, plain, major, targets);
      Outcome stock = link(r, plain, major, targets, "stock", List.of(), Map.of(), spy);
      Map<String, String> env = Map.of("OFFLINK_JAVA", java);
      List<String> ours = List.of("-B", tree + "/libexec/offlink/", "-v");
      Outcome split = link(r, plain, major, targets, "split", ours, env, spy);
      assertEquals(0, stock.link().exitStatus(), stock.link().stderr());
      assertEquals(0, split.link().exitStatus(), split.link().stderr());
      assertEquals(OUTPUT, stock.run().stdout(), "stock's program");
      assertEquals(OUTPUT, split.run().stdout(), "offlink's program");
      for (String t : List.of("nvptx-none", "amdgcn-amdhsa")) {
        assertTrue(
            split.link().stderr().contains(t + ": device partitions: 3 for 3 inputs, 3 compiled"),
            split.link().stderr());
      }
      assertEquals(
          DeviceJobsIT.tables(stock.spy()), DeviceJobsIT.tables(split.spy()), "registrations");
      assertTrue(split.spy().contains(" requires=0x200"), split.spy());
      List<String> host =
          RegistrationDump.parse(split.spy()).registered().get(0).names("host ind_func");
      assertEquals(indirect ? 5 : 0, host.size(), split.spy());
      for (RegisteredImage image : DeviceJobsIT.images(split.program())) {
        if (image instanceof NvptxTargetData n) {
          assertEquals(host, DeviceCode.ptxIndirectTable(n.chunks()), "nvptx device table");
          if (DeviceCode.cudaPresent()) {
            DeviceCode.assertPtxLinks("gcc-" + major, n.chunks(), r.work().resolve("ptx"));
          }
        } else if (image instanceof GcnTargetData g && DeviceCode.llvmPresent()) {
          assertEquals(
              host,
              DeviceCode.gcnIndirectTable(g.image(), r.work().resolve("gcn")),
              "gcn device table");
        }
      }

      // requires in main.c and u1.c, not in u2.c (no target construct there): the whole program
      // is compiled, and what stock makes of it, an image (13, 14) or lto1's error (15, 16),
      // offlink makes.
      Path some = sources(r, "requires", "#pragma omp requires unified_shared_memory", false);
      compile(r, some, major, targets);
      Outcome stockSome = link(r, some, major, targets, "stock", List.of(), Map.of(), spy);
      Outcome whole = link(r, some, major, targets, "split", ours, env, spy);
      assertEquals(
          2,
          whole.link().stderr().lines().filter(WHOLE_PROGRAM.asPredicate()).count(),
          whole.link().stderr());
      boolean refused = major >= 15;
      assertEquals(refused, stockSome.run() == null, stockSome.link().stderr());
      assertEquals(stockSome.link().exitStatus(), whole.link().exitStatus(), whole.link().stderr());
      if (refused) {
        String error = "specified only in some compilation units";
        assertTrue(stockSome.link().stderr().contains(error), stockSome.link().stderr());
        assertTrue(whole.link().stderr().contains(error), whole.link().stderr());
      } else {
        assertEquals(OUTPUT, whole.run().stdout(), "offlink's program");
        assertEquals(stockSome.spy(), whole.spy(), "the whole program's image is stock's");
      }
    }
  }

  /** Writes the three units into {@code work/name}, with {@code declare target indirect} or not. */
  private static Path sources(DebianRoot r, String name, String requires, boolean indirect)
      throws IOException {
    Path dir = Files.createDirectories(r.work().resolve(name));
    String word = indirect ? "indirect" : "";
    for (Map.Entry<String, String> e :
        Map.of("main.c", MAIN, "u1.c", UNIT1, "u2.c", UNIT2).entrySet()) {
      Files.writeString(
          dir.resolve(e.getKey()),
          e.getValue().replace("REQUIRES", requires).replace("INDIRECT", word));
    }
    return dir;
  }

  private static void compile(DebianRoot r, Path dir, int major, List<String> targets)
      throws IOException {
    List<String> argv = new ArrayList<>(List.of("gcc-" + major, "-O2", "-fopenmp", "-c"));
    argv.addAll(targets);
    argv.addAll(List.of("main.c", "u1.c", "u2.c"));
    CommandResult c = r.runIn(dir, argv, Map.of());
    assertEquals(0, c.exitStatus(), () -> "compile: " + c.stderr());
  }

  /** What one link and run gave; no run when the link failed. */
  private record Outcome(CommandResult link, CommandResult run, String spy, Path program) {}

  private static Outcome link(
      DebianRoot r,
      Path dir,
      int major,
      List<String> targets,
      String who,
      List<String> extra,
      Map<String, String> env,
      String spy)
      throws IOException {
    List<String> argv = new ArrayList<>(List.of("gcc-" + major, "-fopenmp"));
    argv.addAll(extra);
    argv.addAll(targets);
    // one program name ("prog", which the spy shows) in a folder per link
    Files.createDirectories(dir.resolve(who));
    argv.addAll(List.of("main.o", "u1.o", "u2.o", "-o", who + "/prog"));
    Map<String, String> linkEnv = new HashMap<>(env);
    if (!extra.isEmpty()) {
      linkEnv.put("OFFLINK_FLAGS", "--device-jobs=2 --no-cache");
    }
    CommandResult link = r.runIn(dir, argv, linkEnv);
    if (link.exitStatus() != 0) {
      return new Outcome(link, null, "", dir.resolve(who).resolve("prog"));
    }
    Path out = dir.resolve(who + ".spy");
    CommandResult run =
        r.runIn(
            dir,
            List.of("./" + who + "/prog"),
            Map.of(
                "LD_PRELOAD",
                spy,
                "OFFLINK_SPY_OUT",
                out.getFileName().toString(),
                "OMP_TARGET_OFFLOAD",
                "DEFAULT"));
    assertEquals(0, run.exitStatus(), () -> who + " run: " + run.stderr());
    return new Outcome(link, run, Files.readString(out), dir.resolve(who).resolve("prog"));
  }
}
