package org.offlink.bridge;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything a command takes from its process: environment, working directory and the two streams.
 * Created once in {@code main}; libraries never read {@code System.getenv} or write to {@code
 * System.out} themselves. For lto-wrapper, {@code out} carries only its protocol (file names); all
 * human text goes to {@code err}.
 */
public record ToolContext(
    Map<String, String> environment, Path workingDirectory, PrintStream out, PrintStream err) {
  /** Copies the environment so the context stays immutable. */
  public ToolContext {
    environment = Map.copyOf(Objects.requireNonNull(environment, "environment"));
    Objects.requireNonNull(workingDirectory, "workingDirectory");
    Objects.requireNonNull(out, "out");
    Objects.requireNonNull(err, "err");
  }

  /** The context of the running JVM; to be called from {@code main} only. */
  public static ToolContext ofSystem() {
    return new ToolContext(System.getenv(), Path.of("").toAbsolutePath(), System.out, System.err);
  }

  /** The value of an environment variable, if set (an empty value counts as set). */
  public Optional<String> env(String name) {
    return Optional.ofNullable(environment.get(name));
  }

  /** A copy with a different environment, e.g. for a child run. */
  public ToolContext withEnvironment(Map<String, String> newEnvironment) {
    return new ToolContext(newEnvironment, workingDirectory, out, err);
  }
}
