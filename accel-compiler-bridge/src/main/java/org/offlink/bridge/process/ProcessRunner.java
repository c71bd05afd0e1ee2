package org.offlink.bridge.process;

import java.io.IOException;

/**
 * The one way offlink runs programs. Implementations echo the argv to stderr first when verbose
 * ({@code -v}), drain both streams, enforce the timeout and honour response files. Tests use a fake
 * that records commands and returns canned results.
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
   * Whether this runner gives a child the {@link LateInput} of {@link Command#withInput} (others
   * close every child's input at its start, and such a command must not be given to them).
   */
  default boolean feedsLateInput() {
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
