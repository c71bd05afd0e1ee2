package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a link through the launchers never pays for, on the JDK they run (the one recorded in
 * lib/java.conf): the JDK's logging backend. Finding it scans every jar on the class path (~30 ms
 * of a cold JVM), and JDK 21+ asks for it at {@code System.exit} and at a process's first {@code
 * ProcessBuilder.start}, neither of which logs anything for a compiler tool. The launchers' JVM is
 * run through a stand-in {@code java} (a JDK home of its own with the real one's release file, so
 * that the launcher passes the same options) that adds {@code -Xlog:class+init}: the log must show
 * offlink's classes being set up and never the JDK's backend detection.
 */
class LauncherStartupIT {
  private static final String PATH = "/usr/sbin:/usr/bin:/sbin:/bin";

  private static final String PROGRAM =
      "int main(void) {\n  int s = 0;\n#pragma omp target map(tofrom: s)\n  s = 7;\n"
          + "  return s == 7 ? 0 : 1;\n}\n";

  @TempDir Path dir;

  @Test
  void aLinkThatRunsTheAccelCompilerNeverLooksUpTheJdksLoggingBackend() throws Exception {
    Path dist = Toolchain.offlinkDist();
    Path recorded = Path.of(Files.readString(dist.resolve("lib/java.conf")).strip());
    Path realHome = recorded.getParent().getParent();
    int feature = featureVersion(realHome.resolve("release"));
    assumeTrue(
        feature >= 21,
        "the launchers run JDK " + feature + ", which looks up no logger at exit or process start");

    Path home = dir.resolve("jdk");
    Files.createDirectories(home.resolve("bin"));
    Files.copy(realHome.resolve("release"), home.resolve("release"));
    Path log = dir.resolve("class-init.log");
    Path java = home.resolve("bin/java");
    // Rotates the arguments through "$@", adding the log option just before -cp.
    Files.writeString(
        java,
        "#!/bin/sh\n"
            + "for a do\n"
            + "  shift\n"
            + "  if [ \"$a\" = -cp ]; then set -- \"$@\" '-Xlog:class+init=info:file="
            + log
            + "'; fi\n"
            + "  set -- \"$@\" \"$a\"\n"
            + "done\n"
            + "exec '"
            + recorded
            + "' \"$@\"\n");
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));

    Files.writeString(dir.resolve("p.c"), PROGRAM);
    assertEquals(0, run("gcc-12", "-fopenmp", "-foffload=nvptx-none", "-c", "p.c"));
    assertEquals(
        0,
        run(
            "gcc-12",
            "-fopenmp",
            "-foffload=nvptx-none",
            "-B",
            dist.resolve("libexec/offlink") + "/",
            "p.o",
            "-o",
            "p"),
        "the link through offlink");

    String classes = Files.readString(log, StandardCharsets.UTF_8);
    assertTrue(classes.contains("org/offlink/bridge/process/SystemProcessRunner"), classes);
    assertFalse(
        classes.contains("jdk/internal/logger/BootstrapLogger$DetectBackend"),
        "the JDK looked for a logging backend during the link");
    assertEquals(0, run(dir.resolve("p").toString()), "the program runs (host fallback)");
  }

  private int run(String... argv) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(List.of(argv)).directory(dir.toFile()).inheritIO();
    pb.environment().put("PATH", PATH);
    pb.environment().put("OFFLINK_JAVA", dir.resolve("jdk/bin/java").toString());
    pb.environment().put("OFFLINK_FLAGS", "--no-cache");
    pb.environment().remove("JAVA_HOME");
    Process p = pb.start();
    assertTrue(p.waitFor(300, TimeUnit.SECONDS), "timed out: " + List.of(argv));
    return p.exitValue();
  }

  private static int featureVersion(Path release) throws Exception {
    for (String line : Files.readAllLines(release)) {
      if (line.startsWith("JAVA_VERSION=\"")) {
        String v = line.substring("JAVA_VERSION=\"".length());
        int end = 0;
        while (end < v.length() && Character.isDigit(v.charAt(end))) {
          end++;
        }
        return Integer.parseInt(v.substring(0, end));
      }
    }
    throw new IllegalStateException(release + ": no JAVA_VERSION line");
  }
}
