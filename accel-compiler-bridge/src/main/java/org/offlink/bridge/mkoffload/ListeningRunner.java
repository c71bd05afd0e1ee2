package org.offlink.bridge.mkoffload;

import java.io.IOException;
import java.util.Objects;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.CommandResult;
import org.offlink.bridge.process.ProcessRunner;
import org.offlink.bridge.tool.OffloadTarget;

/** Tells a {@link MkoffloadListener} about every program mkoffload runs, as it starts and ends. */
final class ListeningRunner implements ProcessRunner {
  private final ProcessRunner delegate;
  private final MkoffloadListener listener;
  private final OffloadTarget target;

  ListeningRunner(ProcessRunner delegate, MkoffloadListener listener, OffloadTarget target) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.listener = Objects.requireNonNull(listener, "listener");
    this.target = Objects.requireNonNull(target, "target");
  }

  @Override
  public boolean feedsLateInput() {
    return delegate.feedsLateInput();
  }

  @Override
  public CommandResult run(Command command) throws IOException {
    listener.commandStarting(target, command);
    CommandResult result = delegate.run(command);
    listener.commandFinished(target, command, result);
    return result;
  }
}
