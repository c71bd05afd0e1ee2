package org.offlink.bridge.process;

import java.io.IOException;
import java.util.List;

/**
 * A program offlink ran failed: its argv, exit status and the tail of its stderr. The message
 * follows GCC's wording, {@code <program> returned <N> exit status}.
 */
public class ToolFailedException extends IOException {
  private static final long serialVersionUID = 1L;

  private final transient List<String> argv;
  private final int exitStatus;
  private final String stderrTail;

  /** Creates the exception from a finished run. */
  public ToolFailedException(CommandResult result) {
    this(result.argv(), result.exitStatus(), tail(result.stderr()));
  }

  /** Creates the exception from its parts (e.g. for a timeout, status -1). */
  public ToolFailedException(List<String> argv, int exitStatus, String stderrTail) {
    super(describe(argv, exitStatus));
    this.argv = List.copyOf(argv);
    this.exitStatus = exitStatus;
    this.stderrTail = stderrTail;
  }

  private static String describe(List<String> argv, int exitStatus) {
    String program = argv.isEmpty() ? "?" : argv.get(0);
    return exitStatus < 0
        ? program + " timed out"
        : program + " returned " + exitStatus + " exit status";
  }

  private static String tail(String text) {
    int max = 4000;
    return text.length() <= max ? text : text.substring(text.length() - max);
  }

  /** The argv that was run. */
  public List<String> argv() {
    return argv;
  }

  /** The exit status, or -1 for a timeout. */
  public int exitStatus() {
    return exitStatus;
  }

  /** The last part of the program's stderr. */
  public String stderrTail() {
    return stderrTail;
  }
}
