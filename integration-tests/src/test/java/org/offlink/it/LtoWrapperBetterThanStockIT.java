package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * offlink's lto-wrapper (with its in-process mkoffload) over stock GCC 12, end to end through
 * {@code gcc -B target/offlink/libexec/offlink/}: PIE links without text relocations and with the
 * same registrations as stock, {@code -fno-use-linker-plugin} offload links, the host/device
 * consistency check and the drop-a-failing-target policy. Registrations are observed with the
 * LD_PRELOAD spy.
 */
class LtoWrapperBetterThanStockIT {
  private static final String A_C =
      "#pragma omp declare target\nint gv[4];\n#pragma omp end declare target\n"
          + "int fa(void){ int r=0;\n#pragma omp target map(from:r)\n r = gv[0]+1;\n return r;}\n";
  private static final String B_C =
      "int fa(void);\nint main(void){ int r=0;\n#pragma omp target map(from:r)\n r = 2;\n"
          + " return fa()+r-3;}\n";

  @TempDir static Path dir;
  static Path libexec;
  static Path spy;

  record Result(int status, String output) {}

  @BeforeAll
  static void setUp() throws Exception {
    libexec = Toolchain.offlinkDist().resolve("libexec/offlink");
    spy = Toolchain.create(Files.createDirectories(dir.resolve("spy"))).spyLibrary();
    Files.writeString(dir.resolve("a.c"), A_C);
    Files.writeString(dir.resolve("b.c"), B_C);
    Result c = exec(List.of("gcc-12", "-fopenmp", "-c", "a.c", "b.c"), Map.of());
    assertEquals(0, c.status(), c.output());
  }

  static Result exec(List<String> argv, Map<String, String> extraEnv) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(argv).directory(dir.toFile()).redirectErrorStream(true);
    Map<String, String> env = pb.environment();
    env.put("PATH", Toolchain.SAFE_PATH);
    env.put("LC_ALL", "C");
    env.remove("OFFLINK_FLAGS");
    env.put("OFFLINK_JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
    env.putAll(extraEnv);
    LinkMode.apply(env);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(180, TimeUnit.SECONDS), "finished: " + argv);
    return new Result(p.exitValue(), out);
  }

  static Result ours(Map<String, String> env, String... args) throws Exception {
    List<String> argv = new ArrayList<>(List.of("gcc-12", "-fopenmp", "-B", libexec + "/"));
    argv.addAll(List.of(args));
    return exec(argv, env);
  }

  /** What the spy saw, with the module name (the executable's) left out. */
  static String registrations(String program) throws Exception {
    Path dump = dir.resolve(program + ".spy");
    Files.deleteIfExists(dump);
    Result run =
        exec(
            List.of("./" + program),
            Map.of("LD_PRELOAD", spy.toString(), "OFFLINK_SPY_OUT", dump.toString()));
    assertEquals(0, run.status(), run.output());
    return Files.readString(dump).replace("module=" + program, "module=X");
  }

  @Test
  void pieLinkHasNoTextRelocationsAndRegistersAsStock() throws Exception {
    Result link = ours(Map.of(), "-foffload=nvptx-none", "-pie", "a.o", "b.o", "-o", "pie");
    assertEquals(0, link.status(), link.output());
    assertEquals("", link.output(), "no ld warnings");
    Result dynamic = exec(List.of("readelf", "-d", "pie"), Map.of());
    assertFalse(dynamic.output().contains("TEXTREL"), dynamic.output());
    Result stock =
        exec(
            List.of("gcc-12", "-fopenmp", "-foffload=nvptx-none", "-pie", "a.o", "b.o", "-o", "st"),
            Map.of());
    assertEquals(0, stock.status(), stock.output());
    assertTrue(stock.output().contains("DT_TEXTREL"), "stock warns:\n" + stock.output());
    String ours = registrations("pie");
    assertTrue(ours.contains(" host funcs=2 vars=1"), ours);
    assertEquals(registrations("st"), ours);
  }

  @Test
  void linkWithoutTheLinkerPluginRegistersTheImage() throws Exception {
    Result link =
        ours(Map.of(), "-fno-use-linker-plugin", "-foffload=nvptx-none", "a.o", "b.o", "-o", "np");
    assertEquals(0, link.status(), link.output());
    String seen = registrations("np");
    assertTrue(seen.contains("register version=0x10001"), seen);
    assertTrue(seen.contains(" host funcs=2 vars=1"), seen);
    assertTrue(seen.contains(" nvptx ptx="), seen);
    assertTrue(seen.contains(" vars=1 funcs=2"), seen);
  }

  @Test
  void strippedIrInAPartialLinkIsALinkError() throws Exception {
    exec(List.of("objcopy", "--remove-section=.gnu.offload_lto_*", "a.o", "a_host.o"), Map.of());
    assertEquals(0, exec(List.of("ld", "-r", "a_host.o", "b.o", "-o", "ab.o"), Map.of()).status());
    Result link = ours(Map.of(), "-foffload=nvptx-none", "ab.o", "-o", "ab");
    assertEquals(1, link.status(), link.output());
    assertTrue(
        link.output()
            .contains(
                "offload tables do not match for nvptx-none: the host objects have 2"
                    + " functions/1 variables (ab.o 2/1) but the nvptx-none image built from them"
                    + " has 1/0"),
        link.output());
  }

  @Test
  void failingDefaultTargetIsDroppedWithOneWarning() throws Exception {
    Result link =
        ours(Map.of(), "-foffload-options=amdgcn-amdhsa=-march=gfx908", "a.o", "b.o", "-o", "dr");
    assertEquals(0, link.status(), link.output());
    List<String> lines = link.output().lines().toList();
    assertEquals(1, lines.size(), link.output());
    assertTrue(
        lines.get(0).startsWith("lto-wrapper: warning: offload target 'amdgcn-amdhsa' dropped"),
        link.output());
    assertTrue(lines.get(0).contains("gfx908"), "mkoffload's reason: " + lines.get(0));
    String seen = registrations("dr");
    assertTrue(seen.contains("target=nvptx"), seen);
    assertFalse(seen.contains("target=gcn"), seen);
  }
}
