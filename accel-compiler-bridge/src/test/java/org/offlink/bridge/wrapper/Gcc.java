package org.offlink.bridge.wrapper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs gcc/binutils for a test with {@code PATH=/usr/bin:/bin} (keeps CUDA's ptxas out) and {@code
 * LC_ALL=C}; a missing tool makes the test fail, never skip.
 */
record Gcc(int exit, String out, String err) {
  static Gcc run(Path dir, String... argv) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(List.of(argv)).directory(dir.toFile());
    pb.environment().put("PATH", "/usr/bin:/bin");
    pb.environment().put("LC_ALL", "C");
    pb.environment().put("LD_LIBRARY_PATH", dir.toString());
    Path out = Files.createTempFile(dir, "out", ".txt");
    Path err = Files.createTempFile(dir, "err", ".txt");
    pb.redirectOutput(out.toFile()).redirectError(err.toFile());
    Process p = pb.start();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("timed out: " + String.join(" ", argv));
    }
    return new Gcc(
        p.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  /** Asserts exit 0, empty stderr and no warning text; returns stdout. */
  String clean(String what) {
    if (exit != 0 || !err.isEmpty() || out.toLowerCase(java.util.Locale.ROOT).contains("warning")) {
      throw new AssertionError(
          what + " exited " + exit + "\nstderr:\n" + err + "\nstdout:\n" + out);
    }
    return out;
  }
}
