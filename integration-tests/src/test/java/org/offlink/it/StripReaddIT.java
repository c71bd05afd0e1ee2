package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * section-streamer's strip and add on a real offload object, judged by what the linked programs
 * register (the LD_PRELOAD spy): stripping the offload IR gives an object that links host-only and
 * registers nothing; adding the IR back gives an object that stock GCC links into a program that
 * registers exactly what the original registers (same PTX and HSACO digests, tables and names).
 */
class StripReaddIT {
  private static final String SOURCE =
      "#include <stdio.h>\nint table[16];\n#pragma omp declare target to(table)\n"
          + "int main(void) {\n  int s = 0;\n#pragma omp target map(tofrom: s)\n"
          + "  for (int i = 0; i < 16; i++) s += table[i] + i;\n"
          + "#pragma omp target teams distribute parallel for map(tofrom: table)\n"
          + "  for (int i = 0; i < 16; i++) table[i] = 2 * i;\n"
          + "  printf(\"%d %d\\n\", s, table[15]);\n  return 0;\n}\n";
  private static final String OFFLOAD = "-foffload=nvptx-none,amdgcn-amdhsa";

  @TempDir static Path dir;
  static Path cli;

  @BeforeAll
  static void setUp() throws Exception {
    cli = Toolchain.offlinkDist().resolve("bin").resolve("section-streamer");
    try (InputStream spy =
        StripReaddIT.class.getResourceAsStream("/interposer/gomp_register_spy.c")) {
      Files.write(dir.resolve("spy.c"), spy.readAllBytes());
    }
    run("gcc-12", "-shared", "-fPIC", "spy.c", "-o", "spy.so", "-ldl");
    Files.writeString(dir.resolve("x.c"), SOURCE);
    run("gcc-12", "-fopenmp", OFFLOAD, "-c", "x.c", "-o", "x.o");
  }

  static String run(String... argv) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(argv).directory(dir.toFile()).redirectErrorStream(true);
    pb.environment().put("PATH", Toolchain.SAFE_PATH);
    pb.environment()
        .put("OFFLINK_JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
    LinkMode.apply(pb.environment());
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(300, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), String.join(" ", argv) + ":\n" + out);
    return out;
  }

  /** The program's output and its registrations, with the module path (which differs) removed. */
  static String runWithSpy(String program) throws Exception {
    Path dump = dir.resolve(program + ".spy");
    ProcessBuilder pb = new ProcessBuilder(dir.resolve(program).toString()).directory(dir.toFile());
    pb.environment().put("LD_PRELOAD", dir.resolve("spy.so").toString());
    pb.environment().put("OFFLINK_SPY_OUT", dump.toString());
    Process p = pb.redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), out);
    String spy = Files.exists(dump) ? Files.readString(dump) : "";
    return out
        + spy.lines().map(l -> l.replaceAll(" module=\\S+", "")).collect(Collectors.joining("\n"));
  }

  @Test
  void strippedObjectLinksHostOnlyAndReaddedObjectRegistersTheSameImages() throws Exception {
    run("gcc-12", "-fopenmp", OFFLOAD, "x.o", "-o", "original");
    String original = runWithSpy("original");
    assertTrue(original.contains("type=5") && original.contains("type=8"), original);

    run(cli.toString(), "strip", "-p", ".gnu.offload_lto_*", "x.o", "-o", "host.o");
    String list = run(cli.toString(), "list", "host.o");
    assertFalse(list.contains(".gnu.offload_lto_"), list);
    assertTrue(list.contains(".gnu.offload_funcs"), "host tables stay: " + list);
    run("gcc-12", "-fopenmp", OFFLOAD, "host.o", "-o", "hostonly");
    String hostOnly = runWithSpy("hostonly");
    assertFalse(hostOnly.contains("type=5") || hostOnly.contains("type=8"), hostOnly);
    assertEquals(original.lines().findFirst(), hostOnly.lines().findFirst(), "same output");

    run(cli.toString(), "add", "--from", "x.o", "host.o", "-o", "back.o");
    run("gcc-12", "-fopenmp", OFFLOAD, "back.o", "-o", "readded");
    assertEquals(original, runWithSpy("readded"));
  }

  @Test
  void fullStripLinksWithoutOffloading() throws Exception {
    run(cli.toString(), "strip", "x.o", "-o", "bare.o");
    String list = run(cli.toString(), "list", "bare.o");
    assertTrue(list.contains("(no offload or LTO sections)"), list);
    run("gcc-12", "bare.o", "-lgomp", "-o", "bare");
    String out = runWithSpy("bare");
    assertTrue(out.startsWith("120 30"), out);
    assertFalse(out.contains("type="), out);
  }
}
