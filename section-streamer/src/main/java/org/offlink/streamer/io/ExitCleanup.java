package org.offlink.streamer.io;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every temporary file this process has created and not yet removed or handed over, so that an
 * interrupt (SIGINT, SIGTERM, SIGHUP) removes them, as GCC's signal handler does with its {@code
 * tool_cleanup}. {@link AtomicFiles} and the temp-file scopes {@link #track} what they create and
 * {@link #untrack} what they delete or hand on; each command's {@code main} registers {@link
 * #shutdownHook()} (a library never registers hooks itself). The JVM then exits with 128 + the
 * signal's number, the status a shell reports for GCC's re-raised signal.
 *
 * <p>Once the hook has started, a file tracked afterwards is deleted at once and reported as an
 * error: a worker thread still running during shutdown cannot leave a new file behind.
 */
public final class ExitCleanup {
  private static final Set<Path> FILES = ConcurrentHashMap.newKeySet();
  private static volatile boolean shuttingDown;
  private static volatile boolean exitingNormally;

  /** How long the hook waits for child processes to end before removing files. */
  private static final long CHILD_WAIT_MS = 2000;

  private ExitCleanup() {}

  /**
   * Records {@code file} for removal at an interrupt.
   *
   * @throws IOException when the process is already shutting down (the file is deleted)
   */
  public static void track(Path file) throws IOException {
    FILES.add(file);
    if (shuttingDown) {
      FILES.remove(file);
      Files.deleteIfExists(file);
      throw new IOException(file + ": interrupted");
    }
  }

  /** Forgets {@code file}: it was removed, or it now belongs to someone else. */
  public static void untrack(Path file) {
    FILES.remove(file);
  }

  /** Whether {@code file} is tracked (for tests). */
  public static boolean isTracked(Path file) {
    return FILES.contains(file);
  }

  /** Whether the shutdown hook has started: writers stop before publishing an output. */
  public static boolean shuttingDown() {
    return shuttingDown;
  }

  /**
   * A thread for {@link Runtime#addShutdownHook}: ends this process's children (frozen, then
   * SIGTERM, waiting up to two seconds, so that none writes a file after the sweep; see {@link
   * ChildEnding}), then removes every tracked file.
   */
  public static Thread shutdownHook() {
    return new Thread(ExitCleanup::runNow, "offlink-exit-cleanup");
  }

  /** What the hook does; callable directly by tests. */
  static void runNow() {
    shuttingDown = true;
    if (!exitingNormally) {
      endChildren();
    }
    sweep();
  }

  /**
   * Says that {@code main} is ending the process itself: every child has been waited for, so the
   * hook only sweeps files. (Listing descendants reads {@code /proc} for every process on the
   * machine, a few milliseconds at the end of every link otherwise.) {@link #finishNormally} says
   * it; tests call this directly.
   */
  static void exitingNormally() {
    exitingNormally = true;
  }

  /**
   * {@code main}'s own end of a run that finished: marks it {@link #exitingNormally} and removes
   * the tracked files on this thread, as the hook would. False when a signal's shutdown has begun
   * (the hook then does the sweep and decides the exit status).
   */
  public static boolean finishNormally() {
    exitingNormally();
    if (shuttingDown) {
      return false;
    }
    sweep();
    return !shuttingDown;
  }

  private static void endChildren() {
    ChildEnding.endAll(CHILD_WAIT_MS);
  }

  private static void sweep() {
    for (Path file : new ArrayList<>(FILES)) {
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        // nobody is left to tell; GCC's signal-time cleanup is silent too
      }
      FILES.remove(file);
    }
  }

  /** Resets the state after {@link #runNow} (for tests only). */
  static void resetForTests() {
    shuttingDown = false;
    exitingNormally = false;
    FILES.clear();
  }
}
