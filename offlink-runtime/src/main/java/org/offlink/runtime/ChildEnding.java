package org.offlink.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Ends this process's descendants at an interrupt so that none outlives the sweep of temporary
 * files.
 *
 * <p>A plain "list the descendants, send each SIGTERM" loses a race: an accel compiler driver that
 * forks {@code lto1} just after the listing dies of the signal (removing its temporaries), and the
 * orphaned {@code lto1}, never signalled, goes on to write the {@code .s} file the driver had just
 * removed. So the tree is first frozen: SIGSTOP to every descendant, and once each is seen stopped,
 * listing again until no new one appears (a child forked meanwhile is found under its stopped
 * parent); then the ending signal to all of them and SIGCONT, so each wakes up to its pending
 * signal with nothing left running to fork. {@code kill(1)} (procps, a dependency of the package)
 * sends the signals the JDK has no call for; where it is missing, the plain loop (SIGTERM) is what
 * is left.
 *
 * <p>The ending signal is SIGHUP first, then SIGTERM for whatever still runs: GCC's programs remove
 * their temporary files on SIGHUP as on a terminal's SIGINT, but {@code collect2} has no SIGTERM
 * handler, so a SIGTERM left its {@code .cdtor.c} and {@code .cdtor.o} in TMPDIR. (SIGINT itself is
 * no choice: a JVM started in the background by {@code sh} passes an ignored SIGINT on to its
 * children.) The second round freezes again, since a child that ignored SIGHUP may have forked.
 */
public final class ChildEnding {
  private static final List<Path> KILL = List.of(Path.of("/bin/kill"), Path.of("/usr/bin/kill"));
  private static final int MAX_ROUNDS = 50;

  /**
   * How long a freeze waits for its SIGSTOPs to take effect (microseconds on an idle machine; a
   * loaded one may keep a runnable process off the CPU for a while). A process blocked in {@code
   * vfork} for a child that is itself stopped never stops: past this, the freeze goes on as it is.
   */
  private static final long STOP_WAIT_MS = 500;

  private static final long STOP_POLL_NANOS = TimeUnit.MICROSECONDS.toNanos(200);

  /** How long children have to clean up after SIGHUP before the rest get SIGTERM. */
  private static final long HANGUP_GRACE_MS = 250;

  private ChildEnding() {}

  /** Ends every descendant, waiting until {@code waitMs} have passed for them to exit. */
  public static void endAll(long waitMs) {
    end(() -> ProcessHandle.current().descendants(), waitMs);
  }

  /**
   * Ends each of {@code roots} and their descendants, the same way, waiting up to {@code waitMs}.
   */
  public static void endTrees(List<ProcessHandle> roots, long waitMs) {
    end(
        () -> roots.stream().flatMap(root -> Stream.concat(Stream.of(root), root.descendants())),
        waitMs);
  }

  private static void end(Supplier<Stream<ProcessHandle>> listing, long waitMs) {
    long start = System.nanoTime();
    long deadline = start + TimeUnit.MILLISECONDS.toNanos(waitMs);
    Optional<Path> kill = KILL.stream().filter(Files::isExecutable).findFirst();
    if (kill.isEmpty()) {
      List<ProcessHandle> tree = listing.get().toList();
      tree.forEach(ProcessHandle::destroy);
      awaitEnd(tree, deadline);
      return;
    }
    List<ProcessHandle> tree = freezeAndSignal(kill.get(), listing, "HUP");
    // The grace counts from the SIGHUP: the freeze before it may have waited for stops to land.
    long grace =
        Math.min(deadline, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(HANGUP_GRACE_MS));
    awaitEnd(tree, grace);
    List<ProcessHandle> left = tree.stream().filter(ChildEnding::running).toList();
    if (!left.isEmpty()) {
      List<ProcessHandle> rest =
          freezeAndSignal(
              kill.get(),
              () -> left.stream().flatMap(h -> Stream.concat(Stream.of(h), h.descendants())),
              "TERM");
      awaitEnd(rest, deadline);
    }
  }

  /** Freezes the processes {@code listing} gives, sends them {@code signal}, then SIGCONT. */
  private static List<ProcessHandle> freezeAndSignal(
      Path kill, Supplier<Stream<ProcessHandle>> listing, String signal) {
    List<ProcessHandle> tree = freeze(kill, listing);
    signal(kill, signal, tree);
    signal(kill, "CONT", tree);
    return tree;
  }

  /**
   * Waits until every one of {@code tree} has ended or the deadline has passed. A zombie counts as
   * ended: it can write nothing more, and one orphaned to a slow-reaping init (as in some
   * containers) would otherwise hold an interrupted link for the whole wait.
   */
  private static void awaitEnd(List<ProcessHandle> tree, long deadline) {
    List<ProcessHandle> left = new ArrayList<>(tree);
    while (true) {
      left.removeIf(h -> !running(h));
      if (left.isEmpty() || System.nanoTime() >= deadline) {
        return;
      }
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** Whether {@code process} still runs: alive, and not a zombie waiting to be reaped. */
  static boolean running(ProcessHandle process) {
    if (!process.isAlive()) {
      return false;
    }
    char state = state(process);
    return state != 'Z' && state != 'X' && state != 0;
  }

  /** Whether {@code process} is stopped (by a signal or a tracer), a zombie, or gone. */
  static boolean stoppedOrGone(ProcessHandle process) {
    char state = state(process);
    return state == 'T' || state == 't' || state == 'Z' || state == 'X' || state == 0;
  }

  /** The state letter of {@code /proc/PID/stat} ({@code R}, {@code S}, {@code T}...), 0 if gone. */
  private static char state(ProcessHandle process) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
      return stat.charAt(stat.lastIndexOf(')') + 2);
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  private static List<ProcessHandle> freeze(Path kill, Supplier<Stream<ProcessHandle>> listing) {
    Set<Long> seen = new HashSet<>();
    List<ProcessHandle> stopped = new ArrayList<>();
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STOP_WAIT_MS);
    for (int round = 0; round < MAX_ROUNDS; round++) {
      List<ProcessHandle> fresh = listing.get().filter(h -> seen.add(h.pid())).toList();
      if (fresh.isEmpty()) {
        break;
      }
      signal(kill, "STOP", fresh);
      stopped.addAll(fresh);
      awaitStopped(fresh, deadline);
    }
    return stopped;
  }

  /**
   * Waits until each of {@code signalled} has stopped (or ended), or the deadline has passed.
   * kill(2) returns before its SIGSTOP has taken effect: a process that waits for a CPU in the
   * middle of a fork completes the fork first, and that child, made after the next listing was
   * taken, would be missed (and the {@code lto1} it becomes writes its {@code .s} after the driver
   * has removed it). Once every process listed is seen stopped, none can fork, and the next listing
   * is complete.
   */
  private static void awaitStopped(List<ProcessHandle> signalled, long deadline) {
    List<ProcessHandle> left = new ArrayList<>(signalled);
    while (true) {
      left.removeIf(ChildEnding::stoppedOrGone);
      if (left.isEmpty() || System.nanoTime() >= deadline) {
        return;
      }
      LockSupport.parkNanos(STOP_POLL_NANOS);
      if (Thread.interrupted()) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private static void signal(Path kill, String signal, List<ProcessHandle> targets) {
    if (targets.isEmpty()) {
      return;
    }
    List<String> argv = new ArrayList<>();
    argv.add(kill.toString());
    argv.add("-" + signal);
    targets.forEach(h -> argv.add(Long.toString(h.pid())));
    try {
      // A process that has exited since the listing makes kill(1) complain; nothing to do.
      new ProcessBuilder(argv)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .redirectError(ProcessBuilder.Redirect.DISCARD)
          .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
          .start()
          .waitFor();
    } catch (IOException e) {
      if (!signal.equals("STOP")) {
        targets.forEach(ProcessHandle::destroy);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
