package org.offlink.ltowrapper;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.CommandResult;
import org.offlink.bridge.process.ProcessRunner;

/** A minimal real runner for the smoke test (stand-in for accel-compiler-bridge's runner). */
final class TestProcessRunner implements ProcessRunner {
  @Override
  public CommandResult run(Command command) throws IOException {
    File out = File.createTempFile("smoke", ".out");
    File err = File.createTempFile("smoke", ".err");
    try {
      ProcessBuilder pb =
          new ProcessBuilder(command.argv())
              .directory(command.workingDirectory().toFile())
              .redirectOutput(out)
              .redirectError(err);
      pb.environment().clear();
      pb.environment().putAll(command.environment());
      Instant start = Instant.now();
      Process p = pb.start();
      int status;
      try {
        status = p.waitFor();
      } catch (InterruptedException e) {
        p.destroyForcibly();
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", e);
      }
      return new CommandResult(
          command.argv(),
          status,
          Files.readString(out.toPath(), StandardCharsets.UTF_8),
          Files.readString(err.toPath(), StandardCharsets.UTF_8),
          Duration.between(start, Instant.now()));
    } finally {
      Files.deleteIfExists(out.toPath());
      Files.deleteIfExists(err.toPath());
    }
  }
}
