package org.offlink.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.CommandResult;
import org.offlink.bridge.process.ProcessRunner;
import org.offlink.bridge.process.ToolFailedException;

/**
 * The harness's {@link ProcessRunner}: runs the command with exactly the environment it carries,
 * sends both streams to files in the working directory (so a chatty child can never block on a full
 * pipe) and reads them back. Response files are not supported; the harness never needs them.
 */
final class LocalProcessRunner implements ProcessRunner {
  private static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(3);

  @Override
  public CommandResult run(Command command) throws IOException {
    if (command.responseFileSuffix().isPresent()) {
      throw new IllegalArgumentException("response files are not supported by the test runner");
    }
    Path dir = command.workingDirectory();
    Path out = Files.createTempFile(dir, ".stdout-", ".txt");
    Path err = Files.createTempFile(dir, ".stderr-", ".txt");
    try {
      ProcessBuilder builder = new ProcessBuilder(command.argv()).directory(dir.toFile());
      builder.environment().clear();
      builder.environment().putAll(command.environment());
      builder.redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
      builder.redirectOutput(out.toFile()).redirectError(err.toFile());
      Instant start = Instant.now();
      Process process = builder.start();
      Duration limit = command.timeout().orElse(DEFAULT_TIMEOUT);
      if (!waitFor(process, limit)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        throw new ToolFailedException(command.argv(), -1, Files.readString(err));
      }
      return new CommandResult(
          command.argv(),
          process.exitValue(),
          read(out),
          read(err),
          Duration.between(start, Instant.now()));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  private static boolean waitFor(Process process, Duration limit) throws IOException {
    try {
      return process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for " + process.info().command(), e);
    }
  }

  private static String read(Path file) throws IOException {
    return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
  }
}
