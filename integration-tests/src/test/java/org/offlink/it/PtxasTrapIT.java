package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ptxas trap: nvptx-none-as verifies PTX with the first {@code ptxas} on PATH, and a CUDA 12+
 * ptxas rejects GCC 12's {@code sm_30}. Stock GCC's nvptx link then fails; through offlink's
 * mkoffload it succeeds and prints one warning saying what was done. Tested with a stand-in ptxas
 * that answers like CUDA 13's (so the test does not depend on CUDA being installed) and, where
 * present, with the real one in /usr/local/bin.
 */
class PtxasTrapIT {
  private static final String PROGRAM =
      "#include <stdio.h>\nint main(void) {\n  int s = 0;\n#pragma omp target map(tofrom: s)\n"
          + "  for (int i = 0; i < 10; i++) s += i;\n  printf(\"%d\\n\", s);\n  return 0;\n}\n";

  @TempDir static Path dir;
  static Path tools;
  static Path fakeCuda;

  record Link(int status, String stderr) {}

  @BeforeAll
  static void setUp() throws Exception {
    Path dist = Toolchain.offlinkDist();
    tools = dir.resolve("tools");
    Path accel = Files.createDirectories(tools.resolve("accel/nvptx-none"));
    Files.createSymbolicLink(
        accel.resolve("mkoffload"), dist.resolve("libexec/offlink/accel/nvptx-none/mkoffload"));
    Files.createSymbolicLink(
        tools.resolve("lto-wrapper"), Path.of("/usr/lib/gcc/x86_64-linux-gnu/12/lto-wrapper"));
    fakeCuda = Files.createDirectories(dir.resolve("cuda13/bin"));
    Path ptxas = fakeCuda.resolve("ptxas");
    Files.writeString(
        ptxas,
        "#!/bin/sh\n"
            + "for a in \"$@\"; do case $a in --version) echo 'Cuda compilation tools,"
            + " release 13.0, V13.0.48'; exit 0;; sm_30|sm_35|*=sm_30|*=sm_35) echo \"ptxas fatal   : Value"
            + " '$a' is not defined for option 'gpu-name'\" >&2; exit 255;; esac; done\nexit 0\n");
    Files.setPosixFilePermissions(ptxas, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.writeString(dir.resolve("p.c"), PROGRAM);
    assertEquals(0, link(List.of("-c", "p.c", "-o", "p.o"), "/usr/bin:/bin", false).status());
  }

  static Link link(List<String> args, String path, boolean ours) throws Exception {
    List<String> argv = new ArrayList<>(List.of("gcc-12", "-fopenmp", "-foffload=nvptx-none"));
    if (ours) {
      argv.add("-B" + tools + "/");
    }
    argv.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(argv).directory(dir.toFile());
    Map<String, String> env = pb.environment();
    env.put("PATH", path);
    env.put("LC_ALL", "C");
    env.put("OFFLINK_JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
    LinkMode.apply(env);
    Process p = pb.redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(300, TimeUnit.SECONDS));
    return new Link(p.exitValue(), err);
  }

  private static void assertStockFailsOursWarns(String path, String tag) throws Exception {
    Link stock = link(List.of("p.o", "-o", "stock-" + tag), path, false);
    assertNotEquals(0, stock.status(), "stock GCC should fail with a too-new ptxas: " + tag);
    assertTrue(stock.stderr().contains("is not defined for option 'gpu-name'"), stock.stderr());
    Link ours = link(List.of("p.o", "-o", "ours-" + tag), path, true);
    assertEquals(0, ours.status(), ours.stderr());
    List<String> warnings =
        ours.stderr().lines().filter(l -> l.startsWith("mkoffload: warning: ")).toList();
    assertEquals(1, warnings.size(), ours.stderr());
    assertFalse(
        ours.stderr().contains("ptxas fatal"), "the probe must stay silent: " + ours.stderr());
    assertTrue(warnings.get(0).contains("--no-verify"), warnings.get(0));
    assertTrue(warnings.get(0).contains("OFFLINK_PTXAS=keep"), warnings.get(0));
    Process run = new ProcessBuilder(dir.resolve("ours-" + tag).toString()).start();
    String out = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, run.waitFor());
    assertEquals("45\n", out);
  }

  @Test
  void standInCuda13PtxasFirstOnPath() throws Exception {
    assertStockFailsOursWarns(fakeCuda + ":/usr/bin:/bin", "fake");
  }

  @Test
  void realPtxasInUsrLocalBinWhenInstalled() throws Exception {
    assumeTrue(
        Files.isExecutable(Path.of("/usr/local/bin/ptxas")),
        "no CUDA ptxas in /usr/local/bin on this machine (the stand-in test covers the logic)");
    assertStockFailsOursWarns("/usr/local/bin:/usr/bin:/bin", "real");
  }
}
