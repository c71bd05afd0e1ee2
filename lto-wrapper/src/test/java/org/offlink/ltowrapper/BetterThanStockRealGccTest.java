package org.offlink.ltowrapper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * offlink's lto-wrapper features over stock GCC 12, with the real gcc-12 and GCC's own mkoffload
 * (through the production {@link LtoWrapperMain}): the PIE offload table, non-plugin links, the
 * host/device consistency check and the failure policy. Fails (does not skip) when gcc-12 is
 * missing. PATH excludes /usr/local/bin (its CUDA ptxas rejects GCC 12's PTX).
 */
class BetterThanStockRealGccTest {
  private static final String A_C =
      "#pragma omp declare target\nint gv[4];\n#pragma omp end declare target\n"
          + "int fa(void){ int r=0;\n#pragma omp target map(from:r)\n r = gv[0]+1;\n return r;}\n";
  private static final String B_C =
      "int fa(void);\nint main(void){ int r=0;\n#pragma omp target map(from:r)\n r = 2;\n"
          + " return fa()+r-3;}\n";

  @TempDir Path dir;

  record Outcome(int status, String output) {}

  private Outcome exec(List<String> argv, Map<String, String> env) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(argv).directory(dir.toFile()).redirectErrorStream(true);
    pb.environment().put("PATH", "/usr/bin:/bin");
    pb.environment().put("LANG", "C");
    pb.environment().remove("OFFLINK_FLAGS");
    pb.environment().putAll(env);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "finished: " + argv);
    return new Outcome(p.exitValue(), out);
  }

  private String run(List<String> argv, int expected) throws Exception {
    Outcome o = exec(argv, Map.of());
    assertEquals(expected, o.status(), argv + "\n" + o.output());
    return o.output();
  }

  private List<String> link(String... args) {
    List<String> argv = new ArrayList<>(List.of("gcc-12", "-fopenmp", "-B", dir + "/bin/"));
    argv.addAll(List.of(args));
    return argv;
  }

  @BeforeEach
  void compile() throws Exception {
    Path bin = Files.createDirectories(dir.resolve("bin"));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Path script = bin.resolve("lto-wrapper");
    Files.writeString(
        script,
        "#!/bin/sh\nexec '"
            + java
            + "' -Dofflink.argv0=\"$0\" -cp '"
            + System.getProperty("java.class.path")
            + "' "
            + LtoWrapperMain.class.getName()
            + " \"$@\"\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.writeString(dir.resolve("a.c"), A_C);
    Files.writeString(dir.resolve("b.c"), B_C);
    run(List.of("gcc-12", "-fopenmp", "-foffload=nvptx-none", "-c", "a.c", "b.c"), 0);
  }

  @Test
  void pieLinkHasNoTextRelocationsAndTheSameTable() throws Exception {
    String out = run(link("-foffload=nvptx-none", "-pie", "a.o", "b.o", "-o", "pie"), 0);
    assertFalse(out.contains("warning"), "no ld warnings:\n" + out);
    String dynamic = run(List.of("readelf", "-d", "pie"), 0);
    assertFalse(dynamic.contains("TEXTREL"), dynamic);
    // The four table words point at the bracket symbols, as GCC's crtoffloadtable.o's do.
    String nm = run(List.of("nm", "pie"), 0);
    assertTrue(nm.contains(" D __OFFLOAD_TABLE__"), nm);
    String relocs = run(List.of("readelf", "-rW", "pie"), 0);
    long table = address(nm, "__OFFLOAD_TABLE__");
    List<String> brackets =
        List.of(
            "__offload_func_table",
            "__offload_funcs_end",
            "__offload_var_table",
            "__offload_vars_end");
    for (int i = 0; i < 4; i++) {
      String line = String.format("%016x", table + 8L * i);
      String target = Long.toHexString(address(nm, brackets.get(i)));
      assertTrue(
          relocs.lines().anyMatch(l -> l.startsWith(line) && l.strip().endsWith(" " + target)),
          brackets.get(i) + " at " + line + ":\n" + relocs);
    }
    run(List.of("./pie"), 0);
  }

  @Test
  void nonPieLinkKeepsGccsCrtoffloadtable() throws Exception {
    run(link("-foffload=nvptx-none", "-no-pie", "a.o", "b.o", "-o", "exe"), 0);
    assertTrue(run(List.of("nm", "exe"), 0).contains(" R __OFFLOAD_TABLE__"), "in .rodata");
    run(List.of("./exe"), 0);
  }

  @Test
  void linkWithoutTheLinkerPluginBuildsTheImage() throws Exception {
    byte[] before = Files.readAllBytes(dir.resolve("b.o"));
    run(link("-fno-use-linker-plugin", "-foffload=nvptx-none", "a.o", "b.o", "-o", "noplugin"), 0);
    String nm = run(List.of("nm", "noplugin"), 0);
    assertTrue(nm.contains(" ptx_code_0"), nm);
    assertTrue(nm.contains(" target_data"), nm);
    assertTrue(nm.contains("GOMP_offload_register_ver"), nm);
    assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(dir.resolve("b.o"))));
    run(List.of("./noplugin"), 0);
  }

  /**
   * A partial link of an object whose offload IR was removed with one that kept it: the host tables
   * list 2 functions and 1 variable, the image only 1 function. Stock links it and libgomp fails on
   * a GPU at run time; offlink fails the link.
   */
  @Test
  void hostDeviceTableMismatchIsALinkError() throws Exception {
    run(List.of("objcopy", "--remove-section=.gnu.offload_lto_*", "a.o", "a_host.o"), 0);
    run(List.of("ld", "-r", "a_host.o", "b.o", "-o", "ab.o"), 0);
    String out = run(link("-foffload=nvptx-none", "ab.o", "-o", "ab"), 1);
    assertTrue(
        out.contains(
            "lto-wrapper: fatal error: offload tables do not match for nvptx-none: the host"
                + " objects have 2 functions/1 variables (ab.o 2/1) but the nvptx-none image"
                + " built from them has 1/0"),
        out);
    Outcome off =
        exec(
            link("-foffload=nvptx-none", "ab.o", "-o", "ab"),
            Map.of("OFFLINK_FLAGS", "--no-consistency-check"));
    assertEquals(0, off.status(), off.output());
  }

  @Test
  void failingDefaultTargetIsDroppedWithOneWarning() throws Exception {
    // No -foffload: gcc sets OFFLOAD_TARGET_DEFAULT; Debian 12's GCC cannot link gfx908.
    List<String> argv =
        link("-foffload-options=amdgcn-amdhsa=-march=gfx908", "a.o", "b.o", "-o", "dropped");
    Outcome warn = exec(argv, Map.of());
    assertEquals(0, warn.status(), warn.output());
    List<String> lines = warn.output().lines().toList();
    assertEquals(1, lines.size(), warn.output());
    assertTrue(
        lines.get(0).startsWith("lto-wrapper: warning: offload target 'amdgcn-amdhsa' dropped"),
        warn.output());
    String nm = run(List.of("nm", "dropped"), 0);
    assertTrue(nm.contains(" ptx_code_0"), "nvptx still linked");
    assertFalse(nm.contains("gcn_code"), "amdgcn dropped");
    run(List.of("./dropped"), 0);

    Outcome fatal = exec(argv, Map.of("OFFLINK_FLAGS", "--offload-failure=fatal"));
    assertEquals(1, fatal.status(), fatal.output());
    assertTrue(fatal.output().contains("mkoffload returned 1 exit status"), fatal.output());
  }

  private static long address(String nm, String symbol) {
    return nm.lines()
        .filter(l -> l.endsWith(" " + symbol))
        .map(l -> Long.parseUnsignedLong(l.substring(0, l.indexOf(' ')), 16))
        .findFirst()
        .orElseThrow(() -> new AssertionError(symbol + " not in nm output"));
  }
}
