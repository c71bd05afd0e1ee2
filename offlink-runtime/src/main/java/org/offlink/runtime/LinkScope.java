package org.offlink.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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

  private final Set<Path> files = ConcurrentHashMap.newKeySet();
  private final Set<Process> children = ConcurrentHashMap.newKeySet();
  private final int umask;
  private volatile boolean cancelled;

  private LinkScope(int umask) {
    this.umask = umask;
  }

  /** A scope whose new files get modes by the JVM process's umask (a command line's link). */
  public static LinkScope withProcessUmask() {
    return new LinkScope(PROCESS_UMASK);
  }

  /**
   * A scope whose new files get modes by {@code umask} (a link run for another process, such as a
   * link server's client, whose umask is not the server's).
   */
  public static LinkScope withUmask(int umask) {
    if (umask < 0 || umask > 0777) {
      throw new IllegalArgumentException("umask out of range: " + Integer.toOctalString(umask));
    }
    return new LinkScope(umask);
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
    if (cancelled) {
      files.remove(file);
      Files.deleteIfExists(file);
      throw new IOException(file + ": interrupted");
    }
  }

  /** Forgets {@code file}: it was removed, or it now belongs to someone else. */
  public void untrack(Path file) {
    files.remove(file);
  }

  /**
   * Records a child this link has just started, so that {@link #cancel} ends it.
   *
   * @throws IOException when the link is cancelled already (the child and its descendants are ended
   *     first: a cancel's listing may have missed it)
   */
  public void childStarted(Process child) throws IOException {
    children.add(child);
    if (cancelled) {
      children.remove(child);
      ChildEnding.endTrees(List.of(child.toHandle()), CHILD_WAIT_MS);
      throw new IOException("interrupted");
    }
  }

  /** Forgets a child that has ended. */
  public void childEnded(Process child) {
    children.remove(child);
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
    cancelled = true;
    List<ProcessHandle> running = new ArrayList<>();
    for (Process p : new ArrayList<>(children)) {
      running.add(p.toHandle());
    }
    if (!running.isEmpty()) {
      ChildEnding.endTrees(running, CHILD_WAIT_MS);
    }
    sweep();
  }

  /** The normal end of the link: removes the files still tracked; never throws. */
  public void close() {
    sweep();
  }

  private void sweep() {
    for (Path file : new ArrayList<>(files)) {
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        // nobody is left to tell; GCC's signal-time cleanup is silent too
      }
      files.remove(file);
    }
  }
}
