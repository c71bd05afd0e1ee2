package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The wrapper objects offlink's mkoffload writes are position-independent: linked into a PIE and a
 * shared library with {@code -z text} and {@code --fatal-warnings} (any text relocation or linker
 * warning fails the link), they add no TEXTREL and keep GNU_STACK non-executable.
 */
class WrapperObjectLinkIT {
  private static final String STUB =
      "__attribute__((visibility(\"hidden\"))) const void *const __OFFLOAD_TABLE__[4];\n"
          + "void GOMP_offload_register_ver(unsigned v, const void *t, int d, const void *x)"
          + " { (void) v; (void) t; (void) d; (void) x; }\n"
          + "void GOMP_offload_unregister_ver(unsigned v, const void *t, int d, const void *x)"
          + " { (void) v; (void) t; (void) d; (void) x; }\n";

  @TempDir static Path dir;
  static Path nvptxWrapper;
  static Path gcnWrapper;

  @BeforeAll
  static void buildWrappers() throws Exception {
    Path dist = Toolchain.offlinkDist();
    Path tools = dir.resolve("tools");
    for (String t : List.of("nvptx-none", "amdgcn-amdhsa")) {
      Path accel = Files.createDirectories(tools.resolve("accel").resolve(t));
      Files.createSymbolicLink(
          accel.resolve("mkoffload"), dist.resolve("libexec/offlink/accel/" + t + "/mkoffload"));
    }
    Files.createSymbolicLink(
        tools.resolve("lto-wrapper"), Path.of("/usr/lib/gcc/x86_64-linux-gnu/12/lto-wrapper"));
    Files.writeString(
        dir.resolve("p.c"),
        "int v[8];\n#pragma omp declare target to(v)\nint main(void) {\n  int s = 0;\n"
            + "#pragma omp target map(tofrom: s)\n  for (int i = 0; i < 8; i++) s += v[i] + i;\n"
            + "  return s == 28 ? 0 : 1;\n}\n");
    Files.writeString(dir.resolve("stub.c"), STUB);
    run("gcc-12", "-fopenmp", "-foffload=nvptx-none,amdgcn-amdhsa", "-c", "p.c");
    run(
        "gcc-12",
        "-B" + tools + "/",
        "-save-temps",
        "-fopenmp",
        "-foffload=nvptx-none,amdgcn-amdhsa",
        "p.o",
        "-o",
        "p");
    nvptxWrapper = dir.resolve("p.xnvptx-none.o");
    gcnWrapper = dir.resolve("p.xamdgcn-amdhsa.o");
    assertTrue(Files.isRegularFile(nvptxWrapper) && Files.isRegularFile(gcnWrapper));
  }

  static Stream<Arguments> links() {
    return Stream.of("nvptx", "gcn")
        .flatMap(t -> Stream.of(Arguments.of(t, "-pie"), Arguments.of(t, "-shared")));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("links")
  void linksWithoutTextRelocationsOrExecutableStack(String target, String mode) throws Exception {
    Path wrapper = target.equals("nvptx") ? nvptxWrapper : gcnWrapper;
    String out = "linked-" + target + mode;
    List<String> argv =
        new ArrayList<>(
            List.of("gcc-12", mode, "-fPIC", "-Wl,-z,text", "-Wl,--fatal-warnings", "-o", out));
    if (mode.equals("-pie")) {
      Files.writeString(dir.resolve("main.c"), "int main(void) { return 0; }\n");
      argv.add("main.c");
    }
    argv.addAll(List.of("stub.c", wrapper.toString()));
    String linkOutput = run(argv.toArray(String[]::new));
    assertEquals("", linkOutput, "the link printed something");
    String dynamic = run("readelf", "-d", out);
    assertFalse(dynamic.contains("TEXTREL"), dynamic);
    String stack =
        run("readelf", "-lW", out)
            .lines()
            .filter(l -> l.contains("GNU_STACK"))
            .findFirst()
            .orElseThrow();
    assertTrue(stack.trim().matches(".*\\sRW\\s+0x10$"), stack);
  }

  private static String run(String... argv) throws Exception {
    Process p = new ProcessBuilder(argv).directory(dir.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(300, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), String.join(" ", argv) + ":\n" + out);
    return out;
  }
}
