package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * offlink's mkoffload run directly, as lto-wrapper runs it, on failures: each must exit 1 with one
 * {@code mkoffload: fatal error:} line naming the tool or file, and leave nothing behind in the
 * temp directory or the working directory.
 */
class MkoffloadFailureIT {
  private static final String STOCK_LTO_WRAPPER = "/usr/lib/gcc/x86_64-linux-gnu/12/lto-wrapper";

  @TempDir static Path shared;
  static Path irObject;
  static Path dist;

  @TempDir Path work;

  record Outcome(int status, String stderr, List<String> leftovers) {}

  @BeforeAll
  static void compileIr() throws Exception {
    dist = Toolchain.offlinkDist();
    Files.writeString(
        shared.resolve("k.c"),
        "int k(int v) {\n  int r = 0;\n#pragma omp target map(from: r)\n  r = v + 1;\n"
            + "  return r;\n}\n");
    Process p =
        new ProcessBuilder("gcc-12", "-fopenmp", "-foffload=nvptx-none,amdgcn-amdhsa", "-c", "k.c")
            .directory(shared.toFile())
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), out);
    irObject = shared.resolve("k.o");
  }

  private Outcome mkoffload(String target, Map<String, String> envOverrides, String... args)
      throws Exception {
    Path tmp = Files.createDirectories(work.resolve("tmp"));
    Path cwd = Files.createDirectories(work.resolve("cwd"));
    List<String> argv = new ArrayList<>();
    argv.add(dist.resolve("libexec/offlink/accel/" + target + "/mkoffload").toString());
    argv.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(argv).directory(cwd.toFile());
    Map<String, String> env = pb.environment();
    env.clear();
    env.put("PATH", "/usr/bin:/bin");
    env.put("TMPDIR", tmp.toString());
    env.put("COLLECT_GCC", "gcc");
    env.put("COLLECT_GCC_OPTIONS", "'-fopenmp'");
    env.put("COLLECT_LTO_WRAPPER", STOCK_LTO_WRAPPER);
    env.put("OFFLINK_JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
    env.putAll(envOverrides);
    LinkMode.apply(env);
    Process p = pb.redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(180, TimeUnit.SECONDS), "mkoffload timed out");
    List<String> left = new ArrayList<>();
    for (Path dir : List.of(tmp, cwd)) {
      try (Stream<Path> files = Files.list(dir)) {
        files.forEach(f -> left.add(f.toString()));
      }
    }
    return new Outcome(p.exitValue(), err, left);
  }

  private static void assertFatal(Outcome o, String... mentions) {
    assertEquals(1, o.status(), o.stderr());
    List<String> fatal =
        o.stderr().lines().filter(l -> l.startsWith("mkoffload: fatal error: ")).toList();
    assertEquals(1, fatal.size(), o.stderr());
    for (String m : mentions) {
      assertTrue(fatal.get(0).contains(m), "'" + m + "' not in: " + fatal.get(0));
    }
    assertTrue(o.stderr().endsWith("compilation terminated.\n"), o.stderr());
    assertTrue(!o.stderr().contains("\tat org."), o.stderr());
    assertEquals(List.of(), o.leftovers(), "files left behind");
  }

  private String[] args(String target, String output, String input, String... extra) {
    List<String> a = new ArrayList<>(List.of("-o", output, "-foffload-abi=lp64", "-fopenmp"));
    a.add(input);
    a.addAll(List.of(extra));
    a.addAll(List.of("-dumpbase", "k.x" + target));
    return a.toArray(String[]::new);
  }

  @Test
  void succeedsAndLeavesOnlyTheOutput() throws Exception {
    Path out = work.resolve("k-out.o");
    Outcome o =
        mkoffload(
            "amdgcn-amdhsa",
            Map.of(),
            args("amdgcn-amdhsa", out.toString(), irObject.toString(), "-march=gfx906"));
    assertEquals(0, o.status(), o.stderr());
    assertTrue(Files.size(out) > 1000);
    assertEquals(List.of(), o.leftovers());
  }

  @Test
  void accelCompilerMissingNamesItAndItsPackage() throws Exception {
    Path bin = Files.createDirectories(work.resolve("bin"));
    Files.createSymbolicLink(bin.resolve("gcc"), Path.of("/usr/bin/gcc-12"));
    Outcome o =
        mkoffload(
            "nvptx-none",
            Map.of("PATH", bin.toString()),
            args("nvptx-none", work.resolve("o.o").toString(), irObject.toString()));
    assertFatal(o, "x86_64-linux-gnu-accel-nvptx-none-gcc-12", "gcc-12-offload-nvptx");
  }

  @Test
  void accelCompilerFailureNamesTheCompiler() throws Exception {
    Outcome o =
        mkoffload(
            "nvptx-none",
            Map.of(),
            args(
                "nvptx-none",
                work.resolve("o.o").toString(),
                irObject.toString(),
                "-mno-such-option-anywhere"));
    assertFatal(o, "x86_64-linux-gnu-accel-nvptx-none-gcc-12", "exit status");
    assertTrue(o.stderr().contains("-mno-such-option-anywhere"), o.stderr());
  }

  @Test
  void unknownMarchIsRefused() throws Exception {
    Outcome o =
        mkoffload(
            "amdgcn-amdhsa",
            Map.of(),
            args(
                "amdgcn-amdhsa",
                work.resolve("o.o").toString(),
                irObject.toString(),
                "-march=gfx1234"));
    assertFatal(o, "gfx1234");
  }

  @Test
  void corruptInputObjectIsNamed() throws Exception {
    Path bad = work.resolve("bad.o");
    Files.write(bad, "this is not an ELF object".getBytes(StandardCharsets.US_ASCII));
    Outcome o =
        mkoffload(
            "nvptx-none",
            Map.of(),
            args("nvptx-none", work.resolve("o.o").toString(), bad.toString()));
    assertFatal(o, bad.toString());
  }

  @Test
  void unwritableOutputDirectoryIsNamed() throws Exception {
    Path out = work.resolve("no-such-dir").resolve("o.o");
    Outcome o =
        mkoffload("nvptx-none", Map.of(), args("nvptx-none", out.toString(), irObject.toString()));
    assertFatal(o, out.toString());
  }
}
