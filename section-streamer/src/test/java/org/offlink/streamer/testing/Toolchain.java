package org.offlink.streamer.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the real toolchain (gcc-12, ar, llvm-ar-13, objcopy) for tests. A missing tool fails the
 * test (the process cannot start) instead of skipping it. PATH excludes /usr/local/bin, whose CUDA
 * ptxas rejects GCC 12's PTX.
 */
public final class Toolchain {
  private Toolchain() {}

  /** Runs {@code argv} in {@code dir}, asserts exit status 0, returns stdout. */
  public static String run(Path dir, String... argv) throws IOException, InterruptedException {
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
    run(
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
