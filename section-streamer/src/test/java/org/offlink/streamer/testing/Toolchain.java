package org.offlink.streamer.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the real GCC 12 toolchain in tests. A missing compiler fails the test (CI installs it); it
 * never skips. PATH is {@code /usr/bin:/bin} so that the CUDA {@code ptxas} in /usr/local/bin,
 * which rejects GCC 12's PTX, is not found by the nvptx offload link.
 */
public final class Toolchain {
  /** The C source every test compiles: one offloaded loop whose result is printed. */
  public static final String OFFLOAD_C =
      """
      #include <stdio.h>
      int main (void)
      {
        int s = 0;
      #pragma omp target map(tofrom: s)
        for (int i = 0; i < 10; i++)
          s += i;
        printf ("sum=%d\\n", s);
        return 0;
      }
      """;

  /** The Fortran source: the same loop. */
  public static final String OFFLOAD_F90 =
      """
      program p
        integer :: s, i
        s = 0
        !$omp target map(tofrom: s)
        do i = 0, 9
          s = s + i
        end do
        !$omp end target
        print '(a,i0)', 'sum=', s
      end program p
      """;

  private Toolchain() {}

  /** Result of one command: exit status and combined output. */
  public record Result(int exit, String output) {}

  /** Runs {@code argv} in {@code dir} and returns its status and output. */
  public static Result run(Path dir, List<String> argv) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(argv).directory(dir.toFile()).redirectErrorStream(true);
    pb.environment().put("PATH", "/usr/bin:/bin");
    pb.environment().put("LC_ALL", "C");
    Process p = pb.start();
    byte[] out = p.getInputStream().readAllBytes();
    if (!p.waitFor(300, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IOException("timed out: " + argv);
    }
    return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
  }

  /** Runs {@code argv} and fails with its output unless it exits 0. */
  public static String check(Path dir, List<String> argv) throws IOException, InterruptedException {
    requireTool(argv.get(0));
    Result r = run(dir, argv);
    if (r.exit() != 0) {
      throw new AssertionError(argv + " exited " + r.exit() + ":\n" + r.output());
    }
    return r.output();
  }

  private static void requireTool(String tool) {
    if (tool.contains("/")) {
      return;
    }
    for (String d : List.of("/usr/bin", "/bin")) {
      if (Files.isExecutable(Path.of(d, tool))) {
        return;
      }
    }
    throw new AssertionError(
        tool
            + " not found in /usr/bin:/bin; install gcc-12 and offload"
            + " compilers (scripts/setup-toolchain.sh)");
  }

  /** Writes {@code source} to {@code dir/name} and compiles it to {@code dir/<stem>.o}. */
  public static Path compile(Path dir, String compiler, String name, String source, String... flags)
      throws IOException, InterruptedException {
    Files.writeString(dir.resolve(name), source);
    String obj = name.substring(0, name.lastIndexOf('.')) + ".o";
    List<String> argv =
        new java.util.ArrayList<>(
            List.of(compiler, "-fopenmp", "-foffload=nvptx-none,amdgcn-amdhsa", "-c", name));
    argv.addAll(List.of(flags));
    argv.addAll(List.of("-o", obj));
    check(dir, argv);
    return dir.resolve(obj);
  }

  /** Runs {@code argv} in {@code dir}, asserts exit status 0, returns stdout. */
  public static String stdout(Path dir, String... argv) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(List.of(argv)).directory(dir.toFile());
    pb.environment().put("PATH", "/usr/bin:/bin");
    pb.environment().put("LC_ALL", "C");
    Path err = Files.createTempFile("toolchain", ".err");
    pb.redirectError(err.toFile());
    Process p = pb.start();
    byte[] out = p.getInputStream().readAllBytes();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("timed out: " + String.join(" ", argv));
    }
    String stderr = Files.readString(err);
    Files.delete(err);
    assertEquals(0, p.exitValue(), () -> String.join(" ", argv) + " failed:\n" + stderr);
    return new String(out, StandardCharsets.UTF_8);
  }

  /** Writes {@code text} to {@code dir/name} and returns the path. */
  public static Path write(Path dir, String name, String text) throws IOException {
    Path f = dir.resolve(name);
    Files.createDirectories(f.toAbsolutePath().getParent());
    Files.writeString(f, text);
    return f;
  }

  /** Extracts section {@code section} of {@code object} with objcopy. */
  public static byte[] dumpSection(Path dir, Path object, String section)
      throws IOException, InterruptedException {
    Path out = Files.createTempFile(dir, "section", ".bin");
    Path scratch = Files.createTempFile(dir, "scratch", ".o");
    stdout(
        dir,
        "objcopy",
        "--dump-section",
        section + "=" + out,
        object.toString(),
        scratch.toString());
    return Files.readAllBytes(out);
  }

  /** A C translation unit with one OpenMP target region in function {@code fn}. */
  public static String offloadSource(String fn) {
    return "int "
        + fn
        + "(int n) { int s = 0;\n"
        + "#pragma omp target map(tofrom: s)\n"
        + "  for (int i = 0; i < n; i++) s += i;\n"
        + "  return s; }\n";
  }
}
