package org.offlink.runtime;

import java.util.ArrayList;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The process-wide layer over the links a JVM runs, and the only one: a signal (SIGINT, SIGTERM,
 * SIGHUP) cancels every link still open ({@link LinkScope#cancel}: its children are ended, its
 * files removed), as GCC's signal handler runs its {@code tool_cleanup}. The JVM then exits with
 * 128 + the signal's number, the status a shell reports for GCC's re-raised signal. Only the
 * process edge ({@link CommandStartup}, a link server) opens and closes links here; the links
 * themselves know nothing of it.
 */
public final class ProcessLinks {
  private static final Set<LinkScope> OPEN = ConcurrentHashMap.newKeySet();
  private static volatile boolean shuttingDown;

  /** How long the hook waits for the process's children to end before removing files. */
  private static final long CHILD_WAIT_MS = 2000;

  private ProcessLinks() {}

  /** A link starts: a signal from now on cancels it. */
  public static void opened(LinkScope scope) {
    OPEN.add(scope);
    if (shuttingDown) {
      scope.cancel();
    }
  }

  /** A link has ended (its scope closed or cancelled). */
  public static void closed(LinkScope scope) {
    OPEN.remove(scope);
  }

  /** Whether a signal's shutdown has begun. */
  public static boolean shuttingDown() {
    return shuttingDown;
  }

  /**
   * A thread for {@link Runtime#addShutdownHook}: cancels every open link. The process's other
   * descendants are ended first, the same way (frozen, then SIGTERM), so that none writes a file
   * after the sweep.
   */
  public static Thread shutdownHook() {
    return new Thread(ProcessLinks::runNow, "offlink-exit-cleanup");
  }

  /** What the hook does. */
  static void runNow() {
    shuttingDown = true;
    ChildEnding.endAll(CHILD_WAIT_MS);
    cancelOpen();
  }

  /** Cancels every open link. */
  static void cancelOpen() {
    for (LinkScope scope : new ArrayList<>(OPEN)) {
      scope.cancel();
    }
  }
}
