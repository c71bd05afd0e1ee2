package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runnable tree moves: a copy of target/offlink whose recorded JDK (lib/java.conf) is missing
 * falls back to {@code $JAVA_HOME}, then {@code java} on PATH, without a word; with no JVM at all
 * every launcher prints one line naming what it looked for. The strongest case hides the build JDK
 * itself under an empty tmpfs in a private mount namespace (root only) and links through the copy
 * with a plain {@code gcc-12 -B}.
 */
class LauncherRelocationIT {
  /** No /usr/local/bin: the CUDA 13 ptxas there rejects GCC 12's PTX and breaks nvptx links. */
  private static final String PATH = "/usr/sbin:/usr/bin:/sbin:/bin";

  private static final String FOREIGN_JDK = "/opt/build-machine-jdk-17/bin/java";

  private static final String PROGRAM =
      "int main(void) {\n  int s = 0;\n#pragma omp target map(tofrom: s)\n  s = 7;\n"
          + "  return s == 7 ? 0 : 1;\n}\n";

  @TempDir Path dir;

  record Run(int status, String stdout, String stderr) {}

  private Run run(Map<String, String> env, List<String> argv) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(argv).directory(dir.toFile());
    pb.environment().remove("JAVA_HOME");
    pb.environment().remove("OFFLINK_JAVA");
    pb.environment().put("PATH", PATH);
    pb.environment().putAll(env);
    Path err = Files.createTempFile(dir, "stderr", ".txt");
    pb.redirectError(err.toFile());
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(300, TimeUnit.SECONDS), "timed out: " + argv);
    return new Run(p.exitValue(), out, Files.readString(err));
  }

  /** A copy of the built tree, as another machine would receive it. */
  private Path copyOfTree() throws IOException {
    Path dist = Toolchain.offlinkDist();
    Path copy = dir.resolve("moved/offlink");
    try (Stream<Path> all = Files.walk(dist)) {
      for (Path p : (Iterable<Path>) all::iterator) {
        Path to = copy.resolve(dist.relativize(p).toString());
        if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
          Files.createDirectories(to);
        } else {
          Files.copy(p, to, StandardCopyOption.COPY_ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
        }
      }
    }
    return copy;
  }

  /** A copy of the tree as built on a machine whose JDK this one lacks. */
  private Path movedTreeWithForeignJdk() throws IOException {
    Path tree = copyOfTree();
    Files.writeString(tree.resolve("lib/java.conf"), FOREIGN_JDK + "\n");
    return tree;
  }

  /** offlink --version through the tree's launcher starts a JVM without a word on stderr. */
  private void assertVersionRunsSilently(Path tree, Map<String, String> env) throws Exception {
    Run r = run(env, List.of(tree.resolve("bin/offlink").toString(), "--version"));
    assertEquals(0, r.status(), r.stderr());
    assertEquals("", r.stderr());
  }

  private Run linkThrough(Path tree, Map<String, String> env, List<String> wrap) throws Exception {
    Files.writeString(dir.resolve("p.c"), PROGRAM);
    List<String> argv = new ArrayList<>(wrap);
    argv.addAll(
        List.of(
            "gcc-12",
            "-v",
            "-B" + tree.resolve("libexec/offlink") + "/",
            "-fopenmp",
            "-foffload=nvptx-none",
            "-foffload=amdgcn-amdhsa=-march=gfx906",
            "p.c",
            "-o",
            "p"));
    return run(env, argv);
  }

  private void assertLinkedThroughCopy(Path tree, Run link) throws Exception {
    assertEquals(0, link.status(), link.stderr());
    assertTrue(
        link.stderr().contains(tree.resolve("libexec/offlink/lto-wrapper").toString()),
        link.stderr());
    assertFalse(link.stderr().contains(": error:"), link.stderr());
    Run nm = run(Map.of(), List.of("nm", "p"));
    assertTrue(nm.stdout().contains(" ptx_code_0\n"), nm.stdout());
    assertTrue(nm.stdout().contains(" gcn_code\n"), nm.stdout());
    assertEquals(0, run(Map.of(), List.of(dir.resolve("p").toString())).status());
  }

  @Test
  void aMissingRecordedJdkFallsBackToJavaOnPathSilently() throws Exception {
    Path tree = movedTreeWithForeignJdk();
    // A JAVA_HOME without a java is passed over too.
    Map<String, String> env = Map.of("JAVA_HOME", dir.resolve("no-such-jdk").toString());
    assertVersionRunsSilently(tree, env);
    assertLinkedThroughCopy(tree, linkThrough(tree, env, List.of()));
  }

  @Test
  void javaHomeIsUsedWhenTheRecordedJdkIsMissing() throws Exception {
    Path tree = movedTreeWithForeignJdk();
    Path javaHome = Path.of(System.getProperty("java.home"));
    // No java on PATH at all: only JAVA_HOME can supply it.
    assertVersionRunsSilently(
        tree, Map.of("JAVA_HOME", javaHome.toString(), "PATH", dir.resolve("empty").toString()));
  }

  @Test
  void withNoJvmAtAllEveryLauncherSaysWhatItLookedFor() throws Exception {
    Path tree = movedTreeWithForeignJdk();
    String javaHome = dir.resolve("no-such-jdk").toString();
    for (String launcher :
        List.of(
            "bin/offlink",
            "bin/section-streamer",
            "libexec/offlink/lto-wrapper",
            "libexec/offlink/accel/nvptx-none/mkoffload",
            "libexec/offlink/accel/amdgcn-amdhsa/mkoffload")) {
      String self = tree.resolve(launcher).toString();
      Run r =
          run(
              Map.of("JAVA_HOME", javaHome, "PATH", dir.resolve("empty").toString()),
              List.of(self, "--version"));
      assertEquals(1, r.status(), launcher);
      assertEquals("", r.stdout(), launcher);
      assertEquals(
          self
              + ": error: no Java runtime (17 or newer) found: looked for "
              + javaHome
              + "/bin/java (JAVA_HOME), "
              + FOREIGN_JDK
              + " (recorded at build time), java on PATH\n",
          r.stderr());
    }
  }

  @Test
  void offlinkJavaMayNameACommandOnPath() throws Exception {
    Path tree = movedTreeWithForeignJdk();
    assertVersionRunsSilently(tree, Map.of("OFFLINK_JAVA", "java"));
  }

  @Test
  void anUnusableOfflinkJavaIsAnError() throws Exception {
    Path tree = copyOfTree();
    String bad = dir.resolve("no-such-java").toString();
    Run r = run(Map.of("OFFLINK_JAVA", bad), List.of(tree.resolve("bin/offlink").toString(), "-V"));
    assertEquals(1, r.status());
    assertEquals(
        tree.resolve("bin/offlink")
            + ": error: OFFLINK_JAVA="
            + bad
            + " is not an executable java\n",
        r.stderr());
  }

  /**
   * The build JDK really absent: in a private mount namespace an empty tmpfs covers its home, so
   * the copy's lib/java.conf (left as built) names a java that does not exist there.
   */
  @Test
  void linksThroughACopyInARootThatLacksTheBuildJdk() throws Exception {
    assumeTrue("root".equals(System.getProperty("user.name")), "needs root for a mount namespace");
    Path tree = copyOfTree();
    Path conf = tree.resolve("lib/java.conf");
    assumeTrue(Files.isReadable(conf), "the build recorded no JDK (no lib/java.conf)");
    Path buildJava = Path.of(Files.readString(conf).strip());
    Path buildHome = buildJava.getParent().getParent();
    Path pathJava = Path.of("/usr/bin/java").toRealPath();
    assumeTrue(
        !pathJava.startsWith(buildHome),
        "java on PATH is the build JDK itself (" + buildHome + "): nothing else to fall back to");
    String script = "mount -t tmpfs none \"$1\" && shift && test ! -e \"$0\" && exec \"$@\"";
    List<String> wrap =
        List.of(
            "unshare",
            "--mount",
            "--propagation",
            "private",
            "sh",
            "-c",
            script,
            buildJava.toString(),
            buildHome.toString());
    assertLinkedThroughCopy(tree, linkThrough(tree, Map.of(), wrap));
  }
}
