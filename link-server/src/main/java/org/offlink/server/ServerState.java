package org.offlink.server;

import java.time.Duration;

/**
 * What a server counts: open connections, links running and run, and when the last link ended, so
 * that it exits only after {@code idle} with no link running (Bazel's ServerWatcherRunnable: the
 * idle clock runs only while nothing does).
 */
final class ServerState {
  private final long startNanos = System.nanoTime();
  private int connections;
  private int activeLinks;
  private long linksRun;
  private long linksFailed;
  private long lastLinkEnd = startNanos;
  private boolean stopRequested;
  private boolean retiring;
  private boolean compacted = true;

  synchronized void connectionOpened() {
    connections++;
  }

  synchronized void connectionClosed() {
    connections--;
    notifyAll();
  }

  synchronized void linkStarted() {
    activeLinks++;
  }

  synchronized void linkEnded(int status) {
    activeLinks--;
    linksRun++;
    if (status != 0) {
      linksFailed++;
    }
    lastLinkEnd = System.nanoTime();
    compacted = false;
  }

  /**
   * Whether the heap should be collected now: once per quiet spell, {@code after} into it, so that
   * an idle server gives the memory of its last burst of links back (SerialGC shrinks the heap
   * after a full collection) without collecting between a build's links.
   */
  synchronized boolean shouldCompact(Duration after) {
    if (compacted || activeLinks > 0 || System.nanoTime() - lastLinkEnd < after.toNanos()) {
      return false;
    }
    compacted = true;
    return true;
  }

  synchronized void requestStop() {
    stopRequested = true;
  }

  /** Whether the server should stop taking connections now. */
  synchronized boolean shouldRetire(Duration idle) {
    if (stopRequested) {
      return true;
    }
    boolean quiet = connections == 0 && activeLinks == 0;
    return quiet && !idle.isZero() && System.nanoTime() - lastLinkEnd >= idle.toNanos();
  }

  synchronized void retiring() {
    retiring = true;
  }

  /** Waits until every connection has closed. */
  synchronized void awaitNoConnections() throws InterruptedException {
    while (connections > 0) {
      wait();
    }
  }

  /** {@code key=value} lines for a status answer. */
  synchronized String describe(Duration idle) {
    long uptime = (System.nanoTime() - startNanos) / 1_000_000_000L;
    long idleFor = activeLinks > 0 ? 0 : (System.nanoTime() - lastLinkEnd) / 1_000_000_000L;
    return "state="
        + (retiring ? "stopping" : "serving")
        + "\nuptime_s="
        + uptime
        + "\nidle_s="
        + idleFor
        + "\nidle_limit_s="
        + idle.toSeconds()
        + "\nactive_links="
        + activeLinks
        + "\nlinks="
        + linksRun
        + "\nfailed_links="
        + linksFailed
        + "\n";
  }
}
