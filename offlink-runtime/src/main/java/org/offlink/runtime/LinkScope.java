package org.offlink.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What one link (one command run) owns in its JVM and must not outlive it: the temporary files it
 * has made and not yet removed or handed over, and the child processes it is running; its umask
 * (the mode its new output files get); and its cancellation. Many scopes can be open in one JVM at
 * once, each link's own: nothing here is process-wide.
 *
 * <p>{@link #cancel} is GCC's signal-time {@code tool_cleanup} for this link alone: it ends the
 * link's children (frozen, then SIGTERM, see {@link ChildEnding}, so that none writes a file after
 * the sweep) and removes its files. From then on a file tracked is deleted at once and a child
 * started is ended at once, each reported as an {@link IOException} "interrupted", so a worker
 * thread of a cancelled link cannot leave anything behind. {@link #close} is the normal end: the
 * files still tracked are removed (every child has been waited for).
 *
 * <p>Thread-safe: a link's offload jobs, its cache thread and a canceller use it at once.
 */
public final class LinkScope {
  /** How long {@link #cancel} waits for the link's children to end before removing files. */
  private static final long CHILD_WAIT_MS = 2000;

  /** The umask of a scope that takes the process's own ({@link Umask#ofProcess()}). */
  private static final int PROCESS_UMASK = -1;

  /** The prefix of what {@code offlink-exec} writes when it cannot exec a child. */
  private static final String EXEC_FAILURE = "offlink-exec: ";

  private final Set<Path> files = ConcurrentHashMap.newKeySet();
  private final Set<Path> handedOver = ConcurrentHashMap.newKeySet();
  private final Set<Process> children = ConcurrentHashMap.newKeySet();
  private final long created;
  private final int umask;
  private final Optional<Path> execHelper;
  private final Observer observer;
  private volatile boolean cancelled;
  private volatile boolean childKilled;
  private long childrenStarted; // guarded by publishing

  /**
   * Held while a file is created, an output published or handed over, and while a cancel is
   * declared (see {@link #create}, {@link #publish}, {@link #handOver}).
   */
  private final Object publishing = new Object();

  /**
   * Who else must know what a link owns as it runs: a link server's client, which removes the
   * link's files and ends its children should the server die in the middle.
   */
  public interface Observer {
    /**
     * {@code file} is the link's and is removed if the link is interrupted. A file the link creates
     * is told before it exists: told after, a server killed between the two left it where its
     * client never learned of it.
     */
    void fileTracked(Path file);

    /**
     * {@code file} was removed, or was not created after all. A file handed over ({@link
     * #handOver}) is not told: until the link has ended it is still the link's to remove should the
     * server die, as GCC's signal-time cleanup removes what lto-wrapper has printed.
     */
    void fileUntracked(Path file);

    /** The link started child {@code pid}. */
    void childStarted(long pid);

    /** Child {@code pid} has been waited for. */
    void childEnded(long pid);

    /** Nobody. */
    Observer NONE =
        new Observer() {
          @Override
          public void fileTracked(Path file) {}

          @Override
          public void fileUntracked(Path file) {}

          @Override
          public void childStarted(long pid) {}

          @Override
          public void childEnded(long pid) {}
        };
  }

  private LinkScope(int umask, Optional<Path> execHelper, Observer observer) {
    this.created = System.nanoTime();
    this.umask = umask;
    this.execHelper = execHelper;
    this.observer = observer;
  }

  /** A scope whose new files get modes by the JVM process's umask (a command line's link). */
  public static LinkScope withProcessUmask() {
    return new LinkScope(PROCESS_UMASK, Optional.empty(), Observer.NONE);
  }

  /**
   * A scope whose new files get modes by {@code umask} (a link run for another process, such as a
   * link server's client, whose umask is not the server's); its children get the JVM's umask.
   */
  public static LinkScope withUmask(int umask) {
    return new LinkScope(checked(umask), Optional.empty(), Observer.NONE);
  }

  /**
   * The scope of a link a server runs for a client: new files get the client's {@code umask}, and
   * so do the link's children, which start through {@code execHelper} ({@code offlink-exec}, which
   * sets the umask and makes the child a process group of its own: a JVM can do neither for a
   * child); {@code observer} hears of every file and child.
   */
  public static LinkScope forClient(int umask, Path execHelper, Observer observer) {
    return new LinkScope(
        checked(umask),
        Optional.of(Objects.requireNonNull(execHelper, "execHelper")),
        Objects.requireNonNull(observer, "observer"));
  }

  /**
   * When the link began, as {@link System#nanoTime}: this scope's creation for a server's link;
   * empty for a JVM run for one link, which began with the JVM.
   */
  public OptionalLong serverLinkStart() {
    return execHelper.isPresent() ? OptionalLong.of(created) : OptionalLong.empty();
  }

  private static int checked(int umask) {
    if (umask < 0 || umask > 0777) {
      throw new IllegalArgumentException("umask out of range: " + Integer.toOctalString(umask));
    }
    return umask;
  }

  /**
   * The command that starts {@code argv} (its program a path) as a child of this link: {@code argv}
   * itself, or {@code offlink-exec UMASK PROGRAM ARGV...} for a client's link.
   */
  public List<String> childCommand(List<String> argv) {
    if (execHelper.isEmpty()) {
      return argv;
    }
    List<String> command = new ArrayList<>(argv.size() + 3);
    command.add(execHelper.get().toString());
    command.add(Integer.toOctalString(umask));
    command.add(argv.get(0));
    command.addAll(argv);
    return command;
  }

  /**
   * Why a child started by {@link #childCommand} could not run, in the JDK's words ({@code error=2,
   * No such file or directory}), when {@code status} and {@code stderr} are {@code offlink-exec}'s
   * report of a failed exec; empty otherwise.
   */
  public Optional<String> startFailure(int status, String stderr) {
    if (execHelper.isEmpty() || status != 127 || !stderr.startsWith(EXEC_FAILURE + "error=")) {
      return Optional.empty();
    }
    return Optional.of(stderr.substring(EXEC_FAILURE.length()).strip());
  }

  /** {@code 0666 & ~umask}: the mode {@code open(..., 0666)} gives a new file of this link. */
  public int newFileMode() {
    return 0666 & ~(umask == PROCESS_UMASK ? Umask.ofProcess() : umask);
  }

  /**
   * Records {@code file} for removal at {@link #cancel} or {@link #close}.
   *
   * @throws IOException when the link is cancelled already (the file is deleted)
   */
  public void track(Path file) throws IOException {
    files.add(file);
    observer.fileTracked(file);
    if (cancelled) {
      Files.deleteIfExists(file);
      untrack(file);
      throw new IOException(file + ": interrupted");
    }
  }

  /**
   * Hands {@code file} to the caller (lto-wrapper's outputs, for the linker plugin): {@link #close}
   * leaves it, but a cancel still removes it, as GCC's {@code tool_cleanup} removes the offload and
   * LTRANS objects lto-wrapper has printed when a signal comes before it exits. Otherwise a link
   * cancelled after it printed its outputs (through the server, a SIGTERM just as the link ends)
   * reported 128 + the signal and left them in TMPDIR, where no linker would ever remove them.
   */
  public void handOver(Path file) {
    synchronized (publishing) {
      if (!cancelled) {
        handedOver.add(file); // first: the file is in one of the two sets at every moment
        files.remove(file); // the observer is not told (see Observer#fileUntracked)
        return;
      }
    }
    // Cancelled already: its sweep may have run before this file left the tracked set.
    remove(file);
    untrack(file);
  }

  /** Forgets {@code file}: it was removed, or it now belongs to someone else. */
  public void untrack(Path file) {
    if (files.remove(file)) {
      observer.fileUntracked(file);
    }
  }

  /** A cancelled link starts no child: what {@link #start} throws then. */
  public static final class CancelledException extends IOException {
    private static final long serialVersionUID = 1L;

    CancelledException() {
      super("interrupted");
    }
  }

  /**
   * Starts a child of this link by {@code builder} and records it, so that {@link #cancel} ends it;
   * one step as far as a cancel goes. Started apart from the check, a child started while a cancel
   * was under way was ended by the link's own thread while the cancel swept, and its {@code ld}
   * made its output's temporary after the sweep, to stay: now a cancel's list of children is
   * complete, and its sweep comes after all of them have ended.
   *
   * @throws CancelledException when the link is cancelled (nothing started)
   * @throws IOException what {@link ProcessBuilder#start} throws
   */
  public Process start(ProcessBuilder builder) throws IOException {
    Process child;
    synchronized (publishing) {
      if (cancelled) {
        throw new CancelledException();
      }
      child = builder.start();
      children.add(child);
      childrenStarted++;
      publishing.notifyAll();
    }
    observer.childStarted(child.pid());
    return child;
  }

  /** How many children this link has started so far. */
  public long childrenStarted() {
    synchronized (publishing) {
      return childrenStarted;
    }
  }

  /**
   * Waits until this link has started more than {@code seen} children ({@link #childrenStarted}),
   * it is cancelled, or {@code timeoutMs} have passed: a helper that should not delay a child about
   * to start (the starts of one link take turns) lets it go first.
   */
  public void awaitChildStart(long seen, long timeoutMs) throws InterruptedException {
    long deadline = System.nanoTime() + timeoutMs * 1_000_000;
    synchronized (publishing) {
      while (childrenStarted <= seen && !cancelled) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return;
        }
        publishing.wait(left / 1_000_000 + 1);
      }
    }
  }

  /** Forgets a child that has ended. */
  public void childEnded(Process child) {
    if (children.remove(child)) {
      observer.childEnded(child.pid());
    }
    if (!child.isAlive() && child.exitValue() > 128) {
      childKilled = true; // 128 + the signal's number: ended by a signal
    }
  }

  /** A step on a file that a cancel must not split: its creation, or an output's rename. */
  @FunctionalInterface
  public interface FileStep {
    void run() throws IOException;
  }

  /**
   * Creates {@code file} by {@code create} and tracks it, one step as far as a cancel goes: a file
   * created after a cancel's sweep and before its tracking stayed (in a JVM of its own the process
   * halts right after the shutdown hook's cancel, wherever its other threads are).
   *
   * @throws IOException "{@code file}: interrupted" when the link is cancelled (nothing created),
   *     or what {@code create} throws
   */
  public void create(Path file, FileStep create) throws IOException {
    observer.fileTracked(file); // first: see Observer#fileTracked
    try {
      synchronized (publishing) {
        if (cancelled) {
          throw new IOException(file + ": interrupted");
        }
        create.run();
        files.add(file);
      }
    } catch (IOException | RuntimeException e) {
      observer.fileUntracked(file); // a name taken, or a cancel: not the link's
      throw e;
    }
  }

  /**
   * Runs {@code publication} unless the link is cancelled. A cancel declared while one runs waits
   * for it, so its sweep comes after the rename: checked apart from it, a rename could land just
   * after the sweep had removed the name, and the output stayed (in the link server a cancel does
   * not end the JVM, and the link's threads go on until they notice it).
   *
   * @throws IOException "{@code what}: interrupted" when the link is cancelled (nothing was run)
   */
  public void publish(Path what, FileStep publication) throws IOException {
    synchronized (publishing) {
      if (cancelled) {
        throw new IOException(what + ": interrupted");
      }
      publication.run();
    }
  }

  /** Whether the link has been cancelled: writers stop before publishing an output. */
  public boolean cancelled() {
    return cancelled;
  }

  /**
   * Cancels the link: ends its children, waiting up to two seconds for them, then removes its
   * files. Idempotent; callable from any thread (a signal's shutdown, a server's client hanging
   * up). The link's own thread then fails at its next step and returns.
   */
  public void cancel() {
    List<ProcessHandle> running = new ArrayList<>();
    synchronized (publishing) {
      cancelled = true;
      publishing.notifyAll();
      for (Process p : children) {
        running.add(p.toHandle());
      }
    }
    if (!running.isEmpty()) {
      ChildEnding.endTrees(running, CHILD_WAIT_MS);
    }
    Leftovers.removeWriterTemps(files);
    sweep();
    for (Path file : new ArrayList<>(handedOver)) {
      remove(file);
      handedOver.remove(file);
    }
  }

  /**
   * The normal end of the link: removes the files still tracked; never throws. A link one of whose
   * children was ended by a signal fails at once, while that child's own children may still be
   * going down: what they left beside the link's files is removed too, as at a cancel (a signal
   * that reached a mkoffload JVM after its accel driver's death had made the link fail normally).
   */
  public void close() {
    if (childKilled) {
      Leftovers.removeWriterTemps(files);
    }
    sweep();
  }

  private void sweep() {
    for (Path file : new ArrayList<>(files)) {
      remove(file);
      untrack(file);
    }
  }

  private static void remove(Path file) {
    Leftovers.remove(file);
  }
}
