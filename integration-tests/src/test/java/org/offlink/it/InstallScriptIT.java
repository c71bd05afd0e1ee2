package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * scripts/install.sh: a prefix install that GCC uses through {@code -B}, and {@code --replace-gcc}
 * / {@code --uninstall} with dpkg-divert in a throw-away root (never the machine's real /usr),
 * which must restore GCC's files byte for byte. The replace-gcc link itself, on this machine's real
 * GCC seen through overlay mounts, is ReplaceGccIT's (and the Docker image's, DockerImageIT).
 */
class InstallScriptIT {
  private static final Path GCC_LIBEXEC = Path.of("/usr/lib/gcc/x86_64-linux-gnu/12");
  private static final List<String> REPLACED =
      List.of("lto-wrapper", "accel/nvptx-none/mkoffload", "accel/amdgcn-amdhsa/mkoffload");

  @TempDir Path dir;

  record Run(int status, String output) {}

  private Run run(Map<String, String> env, String... argv) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(argv).directory(dir.toFile()).redirectErrorStream(true);
    pb.environment().put("PATH", "/usr/sbin:/usr/bin:/sbin:/bin");
    pb.environment().putAll(env);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(300, TimeUnit.SECONDS), "timed out: " + String.join(" ", argv));
    return new Run(p.exitValue(), out);
  }

  private static String script() {
    return Path.of(System.getProperty("offlink.repo"), "scripts", "install.sh").toString();
  }

  @Test
  void prefixInstallIsWhatGccUsesThroughB() throws Exception {
    Path prefix = dir.resolve("prefix");
    Run install = run(Map.of(), "bash", script(), "--prefix", prefix.toString());
    assertEquals(0, install.status(), install.output());
    for (String tool : REPLACED) {
      assertTrue(Files.isExecutable(prefix.resolve("libexec/offlink").resolve(tool)), tool);
    }
    assertTrue(Files.isRegularFile(prefix.resolve("lib/offlink/classpath")));
    Files.writeString(
        dir.resolve("p.c"),
        "int main(void) {\n  int s = 0;\n#pragma omp target map(tofrom: s)\n  s = 7;\n"
            + "  return s == 7 ? 0 : 1;\n}\n");
    Run link =
        run(
            Map.of(),
            "gcc-12",
            "-v",
            "-B" + prefix.resolve("libexec/offlink") + "/",
            "-fopenmp",
            "-foffload=nvptx-none,amdgcn-amdhsa",
            "p.c",
            "-o",
            "p");
    assertEquals(0, link.status(), link.output());
    assertTrue(link.output().contains(prefix.resolve("libexec/offlink/lto-wrapper").toString()));
    Run nm = run(Map.of(), "nm", "p");
    assertTrue(nm.output().contains(" ptx_code_0\n") && nm.output().contains(" gcn_code\n"));
    assertEquals(0, run(Map.of(), dir.resolve("p").toString()).status());
    Run uninstall = run(Map.of(), "bash", script(), "--prefix", prefix.toString(), "--uninstall");
    assertEquals(0, uninstall.status(), uninstall.output());
    assertFalse(Files.exists(prefix.resolve("libexec/offlink")));
  }

  @Test
  void replaceGccDivertsAndUninstallRestoresByteForByte() throws Exception {
    Path root = dir.resolve("root");
    Files.createDirectories(root.resolve("var/lib/dpkg/info"));
    Files.createFile(root.resolve("var/lib/dpkg/diversions"));
    Files.createFile(root.resolve("var/lib/dpkg/status"));
    Path gcc = root.resolve(GCC_LIBEXEC.toString().substring(1));
    for (String f : REPLACED) {
      Files.createDirectories(gcc.resolve(f).getParent());
      Files.copy(GCC_LIBEXEC.resolve(f), gcc.resolve(f));
    }
    String[] base = {"bash", script(), "--root", root.toString(), "--prefix", "/usr/local"};
    Run replace = run(Map.of(), concat(base, "--replace-gcc"));
    assertEquals(0, replace.status(), replace.output());
    Run list = run(Map.of(), "dpkg-divert", "--root", root.toString(), "--list");
    for (String f : REPLACED) {
      Path p = gcc.resolve(f);
      assertTrue(Files.isSymbolicLink(p), f);
      assertEquals(Path.of("/usr/local/libexec/offlink", f), Files.readSymbolicLink(p));
      assertTrue(Files.isRegularFile(Path.of(p + ".gcc-offlink-diverted")), f);
      assertTrue(list.output().contains(GCC_LIBEXEC.resolve(f).toString()), list.output());
    }
    assertTrue(Files.isExecutable(root.resolve("usr/local/libexec/offlink/lto-wrapper")));
    Run uninstall = run(Map.of(), concat(base, "--uninstall"));
    assertEquals(0, uninstall.status(), uninstall.output());
    for (String f : REPLACED) {
      Path p = gcc.resolve(f);
      assertFalse(Files.isSymbolicLink(p), f);
      assertArrayEquals(Files.readAllBytes(GCC_LIBEXEC.resolve(f)), Files.readAllBytes(p), f);
      assertFalse(Files.exists(Path.of(p + ".gcc-offlink-diverted"), LinkOption.NOFOLLOW_LINKS));
    }
    assertEquals("", run(Map.of(), "dpkg-divert", "--root", root.toString(), "--list").output());
  }

  private static String[] concat(String[] a, String b) {
    List<String> l = new ArrayList<>(List.of(a));
    l.add(b);
    return l.toArray(String[]::new);
  }
}
