package org.offlink.cli;

import java.io.PrintWriter;
import org.offlink.runtime.ErrorText;
import picocli.CommandLine;

/**
 * How both command lines ({@code offlink}, {@code section-streamer}) run a picocli command: a usage
 * error is {@code <program>: error: <message> (see --help)}, a failure {@code <program>: error:
 * <one line naming the file>} (the stack trace only with {@code OFFLINK_DEBUG}), exit status 1.
 */
public final class CliExecution {
  private CliExecution() {}

  /** Runs {@code cli} on {@code args} with these streams; returns the exit status. */
  public static int execute(
      CommandLine cli,
      String program,
      PrintWriter out,
      PrintWriter err,
      boolean debug,
      String[] args) {
    cli.setOut(out);
    cli.setErr(err);
    cli.setParameterExceptionHandler(
        (e, a) -> {
          err.println(program + ": error: " + e.getMessage() + " (see --help)");
          return 1;
        });
    cli.setExecutionExceptionHandler(
        (e, c, p) -> {
          err.println(program + ": error: " + ErrorText.of(e));
          if (debug) {
            e.printStackTrace(err);
          }
          return 1;
        });
    int status = cli.execute(args);
    out.flush();
    err.flush();
    return status;
  }
}
