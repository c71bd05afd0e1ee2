package org.offlink.bridge.mkoffload;

import java.io.PrintStream;
import java.util.OptionalLong;

/**
 * With {@code OFFLINK_TIMING} set, prints how long each phase of a run took, the first measured
 * from the JVM's start (so it includes the JVM's start-up): {@code mkoffload: timing: start-up 41
 * ms}; in a link server, from the link's start. Silent otherwise.
 */
final class PhaseClock {
  private final boolean enabled;
  private final PrintStream err;
  private long last;

  /**
   * A clock printing to {@code err} when {@code enabled}; {@code serverLinkStart}: when a server's
   * link began (empty in a JVM of its own).
   */
  PhaseClock(boolean enabled, PrintStream err, OptionalLong serverLinkStart) {
    this.enabled = enabled;
    this.err = err;
    if (serverLinkStart.isPresent()) {
      this.last = serverLinkStart.getAsLong();
      return;
    }
    // The JVM's uptime (the launcher script's few ms before it are not counted).
    long uptimeMillis =
        enabled ? java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime() : 0;
    this.last = System.nanoTime() - uptimeMillis * 1_000_000;
  }

  /** Ends the phase called {@code name}. */
  void mark(String name) {
    if (!enabled) {
      return;
    }
    long now = System.nanoTime();
    // Not printf: its first use loads locale data (~10 ms), which would land in the next phase.
    err.println("mkoffload: timing: " + name + " " + (now - last) / 1_000_000 + " ms");
    last = System.nanoTime();
  }
}
