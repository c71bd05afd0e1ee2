package org.offlink.bridge.process;

import java.io.IOException;
import java.util.List;

/**
 * A program offlink ran failed: its argv, exit status and what it printed (stdout, then stderr).
 * The message follows GCC's wording, {@code <program> returned <N> exit status}.
 */
public class ToolFailedException extends IOException {
  private static final long serialVersionUID = 1L;

  private final transient List<String> argv;
  private final int exitStatus;
  private final String output;

  /** Creates the exception from a finished run. */
  public ToolFailedException(CommandResult result) {
    this(result.argv(), result.exitStatus(), result.stdout() + result.stderr());
  }

  /** Creates the exception from its parts (e.g. for a timeout, status -1). */
  public ToolFailedException(List<String> argv, int exitStatus, String output) {
    super(describe(argv, exitStatus));
    this.argv = List.copyOf(argv);
    this.exitStatus = exitStatus;
    this.output = output;
  }

  private static String describe(List<String> argv, int exitStatus) {
    String program = argv.isEmpty() ? "?" : argv.get(0);
    return exitStatus < 0
        ? program + " timed out"
        : program + " returned " + exitStatus + " exit status";
  }

  /** The argv that was run. */
  public List<String> argv() {
    return argv;
  }

  /** The exit status, or -1 for a timeout. */
  public int exitStatus() {
    return exitStatus;
  }

  /** What the program printed: its stdout, then its stderr. */
  public String output() {
    return output;
  }
}
