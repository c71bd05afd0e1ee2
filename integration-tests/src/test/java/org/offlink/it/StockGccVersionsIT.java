package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.offlink.bridge.process.CommandResult;
import org.offlink.streamer.inspect.BinaryInspector;
import org.offlink.streamer.inspect.GcnTargetData;
import org.offlink.streamer.inspect.InspectedObject;
import org.offlink.streamer.inspect.NvptxTargetData;
import org.offlink.streamer.inspect.RegisteredImage;
import org.offlink.streamer.inspect.TargetDataLayout;

/**
 * The oracle for GCC 13-16: stock {@code gcc-<V>} in its Debian root (scripts/setup-toolchain.sh
 * --gcc V) compiles and links examples/saxpy.c for nvptx, gfx906 (16: gfx9-generic) and both; the
 * program runs with host fallback under the registration spy, built in the root with that root's
 * gcc so glibc matches. Each registration must carry the version's registration word and layout,
 * and {@code offlink inspect}'s reading of the binary must agree with what libgomp was handed.
 * Which versions run and whether a missing root fails or skips: {@link DebianRoots}.
 */
class StockGccVersionsIT {
  private static final Path SAXPY = Path.of("..", "examples", "saxpy.c");

  private record Build(String name, List<String> flags, List<OffloadTarget> targets) {}

  /**
   * nvptx, gfx906 and both. Debian's GCC 16 builds no gfx906 libraries (its gcn multilibs are
   * gfx90a, gfx908 and the generic families), so its mkoffload refuses gfx906 and names the generic
   * target of its family, gfx9-generic, which is used instead.
   */
  private static List<Build> builds(int major) {
    String gpu =
        "-foffload-options=amdgcn-amdhsa=-march=" + (major >= 16 ? "gfx9-generic" : "gfx906");
    return List.of(
        new Build("nvptx", List.of("-foffload=nvptx-none"), List.of(OffloadTarget.NVPTX)),
        new Build("gcn", List.of("-foffload=amdgcn-amdhsa", gpu), List.of(OffloadTarget.GCN)),
        new Build(
            "both",
            List.of("-foffload=nvptx-none,amdgcn-amdhsa", gpu),
            List.of(OffloadTarget.NVPTX, OffloadTarget.GCN)));
  }

  /**
   * A program that sets a requires mask (reverse_offload; TARGET_USED is added by the compiler), a
   * declare target variable and, with -DINDIRECT (GCC 14+), an indirect function.
   */
  private static final String FEATURES = featuresProgram("reverse_offload");

  /** That program with another {@code omp requires} clause; it prints 41. */
  static String featuresProgram(String requiresClause) {
    return """
        #include <stdio.h>
        #pragma omp requires %s
        int gv[4] = {0, 1, 2, 3};
        #pragma omp declare target enter(gv)
        int twice (int x) { return 2 * x; }
        #ifdef INDIRECT
        #pragma omp declare target indirect enter(twice)
        #else
        #pragma omp declare target enter(twice)
        #endif
        int main (void)
        {
          int r = 0;
          int (*fp) (int) = twice;
          #pragma omp target map(tofrom: r) map(to: fp)
          r = fp (20) + gv[1];
          printf ("%%d\\n", r);
          return r == 41 ? 0 : 1;
        }
        """
        .formatted(requiresClause);
  }

  /** GOMP_VERSION (the registration word's library half) per GCC major. */
  private static int library(int major) {
    return major == 13 ? 2 : 3;
  }

  /** GOMP_VERSION_{NVIDIA_PTX,GCN} for 13+. */
  private static int device(OffloadTarget t) {
    return t == OffloadTarget.NVPTX ? 1 : 3;
  }

  @ParameterizedTest(name = "gcc-{0}")
  @ValueSource(ints = {13, 14, 15, 16})
  void stockSaxpyRegistersTheVersionsLayoutAndInspectReadsIt(int major) throws IOException {
    Path root = DebianRoots.require(major);
    try (DebianRoot r = DebianRoot.open(root)) {
      Files.writeString(r.work().resolve("features.c"), FEATURES);
      Files.copy(SAXPY, r.work().resolve("saxpy.c"));
      String gcc = "gcc-" + major;
      String spy = r.buildSpy(gcc);
      List<Build> builds = new ArrayList<>(builds(major));
      Build both = builds.get(2);
      builds.add(new Build("features", both.flags(), both.targets()));
      for (Build b : builds) {
        boolean features = b.name().equals("features");
        String prog = (features ? "" : "saxpy-") + b.name();
        List<String> argv = new ArrayList<>(List.of(gcc, "-O2", "-fopenmp"));
        argv.addAll(b.flags());
        if (features && major >= 14) {
          argv.add("-DINDIRECT");
        }
        if (features && major <= 14) {
          // 13/14 default to sm_30, for which nvptx mkoffload drops a reverse_offload image
          // (warning, empty wrapper, no registration); 15+ default to sm_52.
          argv.add("-foffload-options=nvptx-none=-march=sm_35");
        }
        argv.addAll(List.of(features ? "features.c" : "saxpy.c", "-o", prog));
        r.runChecked(argv, Map.of());
        String spyOut = "spy-" + b.name() + ".txt";
        CommandResult run =
            r.run(
                List.of("./" + prog),
                Map.of(
                    "LD_PRELOAD", spy, "OFFLINK_SPY_OUT", spyOut, "OMP_TARGET_OFFLOAD", "DEFAULT"));
        assertEquals(0, run.exitStatus(), gcc + " " + b.name() + ": " + run.stderr());
        assertTrue(run.stdout().contains(features ? "41" : "ran on the host"), run.stdout());
        RegistrationDump dump = RegistrationDump.parse(Files.readString(r.work().resolve(spyOut)));
        List<Registration> registered =
            dump.registrations().stream()
                .filter(g -> g.kind() == Registration.Kind.REGISTER)
                .toList();
        assertEquals(b.targets().size(), registered.size(), dump.text());
        InspectedObject inspected = BinaryInspector.inspect(r.work().resolve(prog)).get(0);
        assertEquals(b.targets().size(), inspected.images().size(), inspected.toString());
        for (OffloadTarget t : b.targets()) {
          Registration g =
              registered.stream()
                  .filter(x -> x.target().equals(Optional.of(t)))
                  .findFirst()
                  .orElseThrow(
                      () -> new AssertionError("no " + t + " registration:\n" + dump.text()));
          int version = library(major) << 16 | device(t);
          assertEquals(version, g.version(), gcc + " " + t + ":\n" + dump.text());
          if (features) {
            assertEquals("0x280", spyValue(g, " requires=", "requires"), dump.text());
            assertEquals(1, g.hostVars(), dump.text());
            if (major >= 14) {
              assertEquals("1", spyValue(g, " host ind_funcs=", "ind_funcs"), dump.text());
            }
          }
          RegisteredImage image =
              inspected.images().stream()
                  .filter(i -> i.deviceType() == g.deviceType())
                  .findFirst()
                  .orElseThrow();
          checkInspectAgrees(major, g, image, inspected);
        }
      }
    }
  }

  /** inspect's reading of one image equals what the spy saw libgomp receive. */
  private static void checkInspectAgrees(
      int major, Registration g, RegisteredImage image, InspectedObject inspected) {
    String where = "gcc-" + major + " " + image.target() + ":\n" + String.join("\n", g.body());
    assertEquals(OptionalInt.of(g.version()), image.version(), where);
    TargetDataLayout layout = major == 13 ? TargetDataLayout.GCC13 : TargetDataLayout.GCC14;
    assertEquals(layout, image.fields().layout(), where);
    long spyMask = Long.decode(spyValue(g, " requires=", "requires"));
    assertEquals(OptionalLong.of(spyMask), image.fields().requiresMask(), where);
    String prefix = image instanceof NvptxTargetData ? " nvptx ind_funcs=" : " gcn ind_funcs=";
    if (layout.hasIndirectFunctions()) {
      assertEquals(
          OptionalInt.of(Integer.parseInt(spyValue(g, prefix, "ind_funcs"))),
          image.fields().indirectFunctions(),
          where);
      assertEquals(
          Integer.parseInt(spyValue(g, " host ind_funcs=", "ind_funcs")),
          inspected.hostTables().orElseThrow().indirectFunctions().size(),
          where);
    } else {
      assertEquals(OptionalInt.empty(), image.fields().indirectFunctions(), where);
    }
    assertEquals(g.deviceFuncs().orElseThrow(), functions(image), where);
    assertEquals(g.deviceVars().orElseThrow(), variables(image), where);
    assertEquals(g.hostFuncs(), inspected.hostTables().orElseThrow().functions().size(), where);
  }

  private static int functions(RegisteredImage image) {
    return image instanceof NvptxTargetData n
        ? n.functions().size()
        : ((GcnTargetData) image).offloadKernels().size();
  }

  private static long variables(RegisteredImage image) {
    return image instanceof NvptxTargetData n
        ? n.variables().size()
        : ((GcnTargetData) image).variableCount();
  }

  private static String spyValue(Registration g, String linePrefix, String key) {
    return g.body().stream()
        .filter(l -> l.startsWith(linePrefix))
        .findFirst()
        .flatMap(l -> RegistrationDump.value(l, key))
        .orElseThrow(() -> new AssertionError("spy printed no '" + linePrefix.trim() + "' line"));
  }
}
