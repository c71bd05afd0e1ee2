package org.offlink.bridge.mkoffload;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Objects;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.CommandResult;
import org.offlink.bridge.process.ProcessRunner;

/**
 * Passes each child's diagnostics on to our stderr once it finishes, as GCC's tools let the accel
 * compiler's and host compiler's messages through; both captured streams go to stderr because
 * lto-wrapper's stdout is reserved for its protocol. Probes ({@link Command#captureOnly()}) stay
 * silent.
 */
final class ForwardingRunner implements ProcessRunner {
  private final ProcessRunner delegate;
  private final PrintStream err;

  ForwardingRunner(ProcessRunner delegate, PrintStream err) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.err = Objects.requireNonNull(err, "err");
  }

  @Override
  public boolean feedsLateInput() {
    return delegate.feedsLateInput();
  }

  @Override
  public CommandResult run(Command command) throws IOException {
    CommandResult result = delegate.run(command);
    if (command.captureOnly()) {
      return result;
    }
    result.showOn(err);
    return result;
  }
}
