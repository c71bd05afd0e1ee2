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
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.containers.Container.ExecResult;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.MountableFile;

/**
 * The Debian package: {@code dpkg-buildpackage -b -us -uc} on a copy of the checkout gives {@code
 * offlink_<version>_amd64.deb}, which lintian passes; installed with apt into a bookworm container
 * next to GCC 12's offload compilers, a plain {@code gcc} link runs offlink (GCC's lto-wrapper and
 * mkoffloads diverted to it) and the program registers an nvptx and a GCN image; {@code apt-get
 * remove} and {@code apt-get purge} each give GCC back its own files, byte for byte, with no
 * diversion left. Skipped, saying so, where no container engine runs or the Debian packaging tools
 * are missing.
 */
@Testcontainers(disabledWithoutDocker = true)
class DebPackageIT {
  private static final String GCC_LIBEXEC = "/usr/lib/gcc/x86_64-linux-gnu/12";
  private static final String GCC_FILES =
      GCC_LIBEXEC
          + "/lto-wrapper "
          + GCC_LIBEXEC
          + "/accel/nvptx-none/mkoffload "
          + GCC_LIBEXEC
          + "/accel/amdgcn-amdhsa/mkoffload";

  /** What the image needs besides the package: GCC 12's offload compilers, as a user has them. */
  private static final String TOOLCHAIN =
      "gcc gcc-12-offload-nvptx gcc-12-offload-amdgcn libc6-dev binutils";

  @TempDir Path dir;

  @Test
  void debInstallsLinksThroughOfflinkAndRemoveAndPurgeGiveGccItsFilesBack() throws Exception {
    for (String tool : List.of("dpkg-buildpackage", "dh", "mvn")) {
      assumeTrue(onPath(tool), tool + " is not installed: cannot build the Debian package");
    }
    Path deb = buildDeb();
    if (onPath("lintian")) {
      String lintian = run(dir, List.of("lintian", "--tag-display-limit", "0", deb.toString()));
      for (String line : lintian.lines().toList()) {
        assertFalse(line.startsWith("E:") || line.startsWith("W:"), "lintian:\n" + lintian);
      }
    }

    try (GenericContainer<?> c =
        new GenericContainer<>(DockerImageName.parse("debian:bookworm"))
            .withCommand("sleep", "infinity")
            .withCopyFileToContainer(MountableFile.forHostPath(deb), "/tmp/offlink.deb")
            .withCopyFileToContainer(
                MountableFile.forHostPath(
                    Path.of(System.getProperty("offlink.repo"), "examples/saxpy.c")),
                "/tmp/saxpy.c")
            .withCopyFileToContainer(
                MountableFile.forClasspathResource("interposer/gomp_register_spy.c"),
                "/tmp/spy.c")) {
      bindHostAptCache(c);
      c.start();
      sh(c, "apt-get update -qq");
      sh(
          c,
          "DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "
              + TOOLCHAIN);
      String gccOwn = sh(c, "sha256sum " + GCC_FILES);

      install(c);
      String diversions = sh(c, "dpkg-divert --list");
      for (String f : GCC_FILES.split(" ")) {
        assertTrue(
            diversions.contains(
                "diversion of " + f + " to " + f + ".gcc-offlink-diverted by offlink"),
            diversions);
      }
      assertTrue(sh(c, "ls /var/cache/offlink/cds").contains(".jsa"), "start-up cache trained");
      // A plain gcc, no -B: GCC's own lto-wrapper path runs offlink, which writes the report.
      String link =
          sh(
              c,
              "cd /tmp && OFFLINK_REPORT=/tmp/report.json gcc -fopenmp -foffload=nvptx-none"
                  + " -foffload=amdgcn-amdhsa=-march=gfx906 saxpy.c -o saxpy && test -s report.json"
                  + " && gcc -shared -fPIC spy.c -o spy.so -ldl"
                  + " && LD_PRELOAD=/tmp/spy.so OFFLINK_SPY_OUT=/tmp/spy.txt ./saxpy"
                  + " && cat spy.txt && offlink inspect saxpy");
      assertTrue(link.contains("saxpy: sum = "), link);
      assertTrue(link.contains("type=5"), "nvptx image registered: " + link);
      assertTrue(link.contains("type=8"), "gcn image registered: " + link);

      sh(c, "DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq offlink");
      assertGccRestored(c, gccOwn);
      assertTrue(sh(c, "dpkg-query -W -f='${Status}' offlink").contains("config-files"));

      install(c);
      sh(c, "DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq offlink");
      assertGccRestored(c, gccOwn);
      assertEquals(
          "gone",
          sh(c, "dpkg-query -W offlink >/dev/null 2>&1 && echo there || echo gone").strip());
      assertEquals("", sh(c, "ls -A /usr/lib/offlink /var/cache/offlink 2>/dev/null || :"));
      // And stock GCC links again.
      sh(c, "cd /tmp && gcc -fopenmp -foffload=nvptx-none saxpy.c -o stock && ./stock");
    }
  }

  private static void install(GenericContainer<?> c) throws Exception {
    sh(
        c,
        "DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends"
            + " /tmp/offlink.deb");
  }

  private static void assertGccRestored(GenericContainer<?> c, String gccOwn) throws Exception {
    assertEquals(gccOwn, sh(c, "sha256sum " + GCC_FILES), "GCC's files byte for byte");
    assertEquals("", sh(c, "find " + GCC_LIBEXEC + " -name '*offlink*'"));
    sh(c, "for f in " + GCC_FILES + "; do test ! -L $f; done");
    assertFalse(sh(c, "dpkg-divert --list").contains("offlink"));
  }

  /** apt in the container reuses the host's downloaded packages, when there are any. */
  private static void bindHostAptCache(GenericContainer<?> c) {
    Path archives = Path.of("/var/cache/apt/archives");
    if (Files.isDirectory(archives.resolve("partial")) && Files.isWritable(archives)) {
      c.withFileSystemBind(archives.toString(), archives.toString());
    }
  }

  private static String sh(GenericContainer<?> c, String script) throws Exception {
    ExecResult r = c.execInContainer("sh", "-c", "set -e; " + script);
    assertEquals(0, r.getExitCode(), script + "\n" + r.getStdout() + r.getStderr());
    return r.getStdout();
  }

  /** The .deb, built by the documented command from a copy of the checkout's files. */
  private Path buildDeb() throws Exception {
    Path repo = Path.of(System.getProperty("offlink.repo"));
    Path src = dir.resolve("offlink");
    String files =
        run(repo, List.of("git", "ls-files", "--cached", "--others", "--exclude-standard"));
    for (String f : files.lines().toList()) {
      Path from = repo.resolve(f);
      if (!Files.exists(from, LinkOption.NOFOLLOW_LINKS)) {
        continue; // deleted in the work tree, not yet in the index
      }
      Path to = src.resolve(f);
      Files.createDirectories(to.getParent());
      Files.copy(from, to, StandardCopyOption.COPY_ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
    }
    run(src, List.of("dpkg-buildpackage", "-b", "-us", "-uc"));
    try (Stream<Path> out = Files.list(dir)) {
      List<Path> debs =
          out.filter(p -> p.getFileName().toString().matches("offlink_.*_amd64\\.deb")).toList();
      assertEquals(1, debs.size(), "one offlink_<version>_amd64.deb: " + debs);
      return debs.get(0);
    }
  }

  private static boolean onPath(String tool) {
    for (String d : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
      if (Files.isExecutable(Path.of(d, tool))) {
        return true;
      }
    }
    return false;
  }

  private String run(Path cwd, List<String> argv) throws IOException, InterruptedException {
    Path log = Files.createTempFile(dir, "run", ".log");
    Process p =
        new ProcessBuilder(new ArrayList<>(argv))
            .directory(cwd.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    assertTrue(p.waitFor(20, TimeUnit.MINUTES), "timed out: " + argv);
    String out = Files.readString(log, StandardCharsets.UTF_8);
    assertEquals(0, p.exitValue(), argv + "\n" + out);
    return out;
  }
}
