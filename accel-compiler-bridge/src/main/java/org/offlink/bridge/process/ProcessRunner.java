package org.offlink.bridge.process;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The one way offlink runs programs. Implementations echo the argv to stderr first when verbose
 * ({@code -v}), print without running when dry-running, drain both streams, enforce the timeout and
 * honour response files. Tests use a fake that records commands and returns canned results.
 */
public interface ProcessRunner {
  /**
   * Runs {@code command} to completion and returns its result whatever the exit status.
   *
   * @throws IOException if the program cannot be started (e.g. not found)
   * @throws ToolFailedException if the timeout expired (the child is killed first)
   */
  CommandResult run(Command command) throws IOException;

  /**
   * Whether {@code program} (as a command would name it, relative to {@code workingDirectory}) runs
   * without starting a process, like lto-wrapper's in-process mkoffload: no exec argv limit
   * applies, so a response file for it would only be written to be read back.
   */
  default boolean runsInProcess(String program, Path workingDirectory) {
    return false;
  }

  /** Runs {@code command} and throws {@link ToolFailedException} unless it exits with 0. */
  default CommandResult runChecked(Command command) throws IOException {
    CommandResult result = run(command);
    if (!result.succeeded()) {
      throw new ToolFailedException(result);
    }
    return result;
  }
}
