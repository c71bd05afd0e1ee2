package org.offlink.bridge.temp;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.offlink.runtime.IoReasons;
import org.offlink.runtime.LinkContext;
import org.offlink.runtime.LinkScope;
import org.offlink.runtime.TempDirectory;
import org.offlink.runtime.WorkingDirectory;

/**
 * Scoped temporary files with GCC's rules. {@link #named} gives {@code <saved name>} under {@code
 * -save-temps} (kept, and announced as {@code [Leaving <name>]} with {@code -v}) and otherwise a
 * fresh {@code <tmpdir>/ccXXXXXX<suffix>} from {@link TempDirectory} (libiberty's rules, in the
 * link's temporary folder); {@link #close} deletes every non-kept file, on success and failure
 * alike. Every file it creates or takes over is tracked by the link's {@link LinkScope}, so a
 * cancelled link (an interrupt) removes them too.
 *
 * <p>lto-wrapper uses the same scope with GCC's lto-wrapper rules on top ({@link #create}, {@link
 * #register}, {@link #release}, {@link #unlink}): a file it made or took over is removed at {@link
 * #close} unless {@code -save-temps} keeps everything, or unless it was handed to the linker
 * plugin. This is the one temporary-file scope of offlink; the directory rule is {@link
 * TempDirectory}'s.
 */
public final class TempFiles implements AutoCloseable {
  private final Path tempDirectory;
  private final Path workingDirectory;
  private final LinkScope scope;
  private final boolean saveTemps;
  private final boolean verbose;
  private final PrintStream err;
  private final Set<Path> toDelete = new LinkedHashSet<>();
  private final List<String> kept = new ArrayList<>();
  private boolean closed;

  /**
   * An empty scope of {@code context}'s link: its temporary folder, working folder, {@link
   * LinkScope}, and its stderr for the {@code [Leaving ...]} lines of {@code -save-temps -v}.
   */
  public TempFiles(LinkContext context, boolean saveTemps, boolean verbose) {
    Objects.requireNonNull(context, "context");
    this.tempDirectory = context.tempDirectory();
    this.workingDirectory = context.workingDirectory();
    this.scope = context.scope();
    this.saveTemps = saveTemps;
    this.verbose = verbose;
    this.err = context.err();
  }

  /** The link's scope, which tracks these files for removal at a cancel. */
  public LinkScope scope() {
    return scope;
  }

  /**
   * A file of this scope: {@code savedName} (relative to the working directory) with -save-temps,
   * else a new temp file ending in {@code suffix}. The returned string is what GCC puts on command
   * lines; {@link #path} resolves it.
   */
  public synchronized String named(String savedName, String suffix) throws IOException {
    if (saveTemps) {
      kept.add(savedName);
      return savedName;
    }
    Path file = TempDirectory.createFile(scope, tempDirectory, suffix);
    toDelete.add(file);
    return file.toString();
  }

  /** A temp file that is deleted at close even with -save-temps (GCC's response files). */
  public synchronized Path scratch(String suffix) throws IOException {
    Path file = TempDirectory.createFile(scope, tempDirectory, suffix);
    toDelete.add(file);
    return file;
  }

  /**
   * A symbolic link to {@code target} under a new temp name ending in {@code suffix}, deleted at
   * close even with -save-temps (its callers do not use it then).
   */
  public synchronized Path link(String suffix, Path target) throws IOException {
    Path file = TempDirectory.createLink(scope, tempDirectory, suffix, target);
    toDelete.add(file);
    return file;
  }

  /**
   * A new temp file ending in {@code suffix} (lto-wrapper's {@code make_temp_file}): deleted at
   * {@link #close} unless -save-temps, which keeps every file of the run.
   */
  public synchronized Path create(String suffix) throws IOException {
    Path file = TempDirectory.createFile(scope, tempDirectory, suffix);
    if (!saveTemps) {
      toDelete.add(file);
    }
    return file;
  }

  /**
   * Takes over a file this scope did not create (GCC's {@code tool_cleanup} list, e.g. the plugin's
   * {@code -foffload-objects=} file): removed at close or on a signal. Nothing with -save-temps.
   */
  public synchronized void register(String name) throws IOException {
    if (saveTemps) {
      return;
    }
    Path file = path(name);
    toDelete.add(file);
    scope.track(file);
  }

  /**
   * Hands a file over (to the linker plugin): it is no longer this scope's to delete at close, but
   * a cancel of the link still removes it ({@link LinkScope#handOver}).
   */
  public synchronized void release(String name) {
    Path file = path(name);
    toDelete.remove(file);
    if (saveTemps) {
      scope.untrack(file); // -save-temps keeps every file, also at a signal
    } else {
      scope.handOver(file);
    }
  }

  /**
   * GCC's {@code maybe_unlink}: deletes {@code name} now unless -save-temps (a directory is left
   * alone) and stops tracking it.
   *
   * @return whether the file was kept (-save-temps)
   */
  public boolean unlink(String name) throws IOException {
    Path file = path(name);
    synchronized (this) {
      toDelete.remove(file);
    }
    scope.untrack(file);
    if (saveTemps) {
      return true;
    }
    if (!Files.isDirectory(file)) {
      Files.deleteIfExists(file);
    }
    return false;
  }

  /** Resolves a name returned by {@link #named} against the working directory. */
  public Path path(String name) {
    return WorkingDirectory.resolve(workingDirectory, name);
  }

  /** Whether -save-temps is in effect. */
  public boolean saveTemps() {
    return saveTemps;
  }

  /** Deletes the scope's files, or announces the kept ones with -v; idempotent. */
  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    IOException failure = null;
    for (Path p : toDelete) {
      try {
        TempDirectory.delete(scope, p);
      } catch (IOException e) {
        failure =
            failure == null
                ? new IOException("deleting file " + IoReasons.describe(p.toString(), e), e)
                : failure;
      }
    }
    if (verbose) {
      for (String name : kept) {
        err.println("[Leaving " + name + "]");
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
