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
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Ends this process's descendants at an interrupt so that none outlives the sweep of temporary
 * files.
 *
 * <p>A plain "list the descendants, send each SIGTERM" loses a race: an accel compiler driver that
 * forks {@code lto1} just after the listing dies of the signal (removing its temporaries), and the
 * orphaned {@code lto1}, never signalled, goes on to write the {@code .s} file the driver had just
 * removed. So the tree is first frozen: SIGSTOP to every descendant, listing again until no new one
 * appears (a child forked meanwhile is found under its stopped parent); then SIGTERM to all of them
 * and SIGCONT, so each wakes up to its pending SIGTERM with nothing left running to fork. {@code
 * kill(1)} (procps, a dependency of the package) sends the signals the JDK has no call for; where
 * it is missing, the plain loop is what is left.
 */
public final class ChildEnding {
  private static final List<Path> KILL = List.of(Path.of("/bin/kill"), Path.of("/usr/bin/kill"));
  private static final int MAX_ROUNDS = 50;

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
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
    Optional<Path> kill = KILL.stream().filter(Files::isExecutable).findFirst();
    List<ProcessHandle> tree;
    if (kill.isPresent()) {
      tree = freeze(kill.get(), listing);
      signal(kill.get(), "TERM", tree);
      signal(kill.get(), "CONT", tree);
    } else {
      tree = listing.get().toList();
      tree.forEach(ProcessHandle::destroy);
    }
    awaitEnd(tree, deadline);
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
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
      char state = stat.charAt(stat.lastIndexOf(')') + 2);
      return state != 'Z' && state != 'X';
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  private static List<ProcessHandle> freeze(Path kill, Supplier<Stream<ProcessHandle>> listing) {
    Set<Long> seen = new HashSet<>();
    List<ProcessHandle> stopped = new ArrayList<>();
    for (int round = 0; round < MAX_ROUNDS; round++) {
      List<ProcessHandle> fresh = listing.get().filter(h -> seen.add(h.pid())).toList();
      if (fresh.isEmpty()) {
        break;
      }
      signal(kill, "STOP", fresh);
      stopped.addAll(fresh);
    }
    return stopped;
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
