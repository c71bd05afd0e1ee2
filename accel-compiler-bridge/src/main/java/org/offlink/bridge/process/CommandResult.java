package org.offlink.bridge.process;

import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The outcome of a finished run: the argv actually executed, the exit status (128+N for a child
 * killed by signal N), both streams fully drained, and the wall time.
 */
public record CommandResult(
    List<String> argv, int exitStatus, String stdout, String stderr, Duration elapsed) {
  /** Copies and checks the fields. */
  public CommandResult {
    argv = List.copyOf(Objects.requireNonNull(argv, "argv"));
    Objects.requireNonNull(stdout, "stdout");
    Objects.requireNonNull(stderr, "stderr");
    Objects.requireNonNull(elapsed, "elapsed");
  }

  /**
   * Shows what the program printed on {@code err}, both streams (stdout first), as GCC's tools let
   * their children's diagnostics through: lto-wrapper's own stdout is its protocol's.
   */
  public void showOn(PrintStream err) {
    err.print(stdout);
    err.print(stderr);
    err.flush();
  }

  /** Whether the program exited with status 0. */
  public boolean succeeded() {
    return exitStatus == 0;
  }
}
