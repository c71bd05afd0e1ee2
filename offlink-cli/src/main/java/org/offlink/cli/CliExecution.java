package org.offlink.cli;

import java.io.PrintWriter;
import java.util.function.ToIntFunction;
import org.offlink.runtime.CommandStartup;
import org.offlink.runtime.ErrorText;
import org.offlink.runtime.LastResort;
import org.offlink.runtime.LinkContext;
import picocli.CommandLine;

/**
 * How both command lines ({@code offlink}, {@code section-streamer}) run a picocli command: a usage
 * error is {@code <program>: error: <message> (see --help)}, a failure {@code <program>: error:
 * <one line naming the file>} (the stack trace only with {@code OFFLINK_DEBUG}), exit status 1.
 */
public final class CliExecution {
  private CliExecution() {}

  /**
   * A command line's {@code main}: starts the process's link context ({@link CommandStartup}), runs
   * {@code body} in it with {@link LastResort} behind it ({@code <program>: error: <message>}, the
   * stack trace only with {@code OFFLINK_DEBUG}) and exits with the status {@code body} returns.
   */
  public static void main(String program, ToIntFunction<LinkContext> body) {
    LinkContext context = CommandStartup.start();
    CommandStartup.exit(
        context,
        LastResort.run(
            program + ": error: ", context.err(), debug(context), () -> body.applyAsInt(context)));
  }

  /** Whether {@code OFFLINK_DEBUG} asks for stack traces. */
  public static boolean debug(LinkContext context) {
    return context.env("OFFLINK_DEBUG").isPresent();
  }

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
