package org.offlink.runtime;

import java.io.PrintStream;
import java.util.function.IntSupplier;

/**
 * The outermost guard of a tool's {@code main}: whatever escapes the command's own error handling
 * (an {@link OutOfMemoryError} on an input whose limits were not foreseen, a bug) ends as one line
 * {@code <prefix><text>} and exit status 1, never as a JVM stack trace; the trace follows only when
 * asked for ({@code OFFLINK_DEBUG}).
 */
public final class LastResort {
  private LastResort() {}

  /**
   * Runs {@code body} and returns its status, or 1 after printing {@code prefix} and the failure.
   *
   * @param prefix e.g. {@code "lto-wrapper: fatal error: "}
   * @param trace whether to print the stack trace after the line
   */
  public static int run(String prefix, PrintStream err, boolean trace, IntSupplier body) {
    try {
      return body.getAsInt();
    } catch (OutOfMemoryError | RuntimeException e) {
      err.println(prefix + ErrorText.of(e));
      if (trace) {
        e.printStackTrace(err);
      }
      err.flush();
      return 1;
    }
  }
}
