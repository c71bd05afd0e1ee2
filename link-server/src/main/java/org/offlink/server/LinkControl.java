package org.offlink.server;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.offlink.runtime.LinkScope;

/**
 * One link's cancellation and witness. The client's SIGINT, SIGTERM or SIGHUP, or its going away,
 * cancels the link: the actions the {@link LinkExecutor} registered with {@link #onCancel} (end the
 * link's children, remove its temporary files) run once, on the thread that cancels, before the
 * client is told the link's status; the link's own thread finds {@link #cancelled()} true.
 */
public final class LinkControl {
  private final LinkScope.Observer witness;
  private final List<Runnable> actions = new ArrayList<>();
  private boolean cancelled;

  /** A control reporting to {@code witness}. */
  public LinkControl(LinkScope.Observer witness) {
    this.witness = Objects.requireNonNull(witness, "witness");
  }

  /** Where the link reports its children and files: its client, through the connection. */
  public LinkScope.Observer witness() {
    return witness;
  }

  /** Whether the link has been cancelled. */
  public synchronized boolean cancelled() {
    return cancelled;
  }

  /** Registers what cancelling must do; runs it at once when the link is already cancelled. */
  public void onCancel(Runnable action) {
    Objects.requireNonNull(action, "action");
    synchronized (this) {
      if (!cancelled) {
        actions.add(action);
        return;
      }
    }
    action.run();
  }

  /** Cancels the link: runs the registered actions, once, in their order. */
  void cancel() {
    List<Runnable> run;
    synchronized (this) {
      if (cancelled) {
        return;
      }
      cancelled = true;
      run = List.copyOf(actions);
      actions.clear();
    }
    for (Runnable action : run) {
      try {
        action.run();
      } catch (RuntimeException e) {
        // one failed clean-up must not keep the others from running
      }
    }
  }
}
