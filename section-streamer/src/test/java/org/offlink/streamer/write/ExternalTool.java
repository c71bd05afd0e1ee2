package org.offlink.streamer.write;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a real binutils/gcc tool for a test; a missing tool fails the test (it never skips). */
record ExternalTool(int exit, String out, String err) {
  static ExternalTool run(Path dir, String... argv) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(List.of(argv)).directory(dir.toFile());
    pb.environment().put("LC_ALL", "C");
    pb.redirectOutput(dir.resolve(".out").toFile()).redirectError(dir.resolve(".err").toFile());
    Process p = pb.start();
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("timed out: " + String.join(" ", argv));
    }
    return new ExternalTool(
        p.exitValue(),
        java.nio.file.Files.readString(dir.resolve(".out"), StandardCharsets.UTF_8),
        java.nio.file.Files.readString(dir.resolve(".err"), StandardCharsets.UTF_8));
  }

  /** Asserts exit 0 and an empty stderr, returning stdout. */
  String clean(String what) {
    if (exit != 0 || !err.isEmpty() || out.contains("Warning") || out.contains("warning")) {
      throw new AssertionError(
          what + " exited " + exit + "\nstderr:\n" + err + "\nstdout:\n" + out);
    }
    return out;
  }
}
