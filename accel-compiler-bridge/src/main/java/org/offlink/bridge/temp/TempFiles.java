package org.offlink.bridge.temp;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.offlink.streamer.io.IoReasons;
import org.offlink.streamer.io.TempDirectory;
import org.offlink.streamer.io.WorkingDirectory;

/**
 * Scoped temporary files with GCC's rules. {@link #named} gives {@code <saved name>} under {@code
 * -save-temps} (kept, and announced as {@code [Leaving <name>]} with {@code -v}) and otherwise a
 * fresh {@code <tmpdir>/ccXXXXXX<suffix>} from {@link TempDirectory} (libiberty's rules); {@link
 * #close} deletes every non-kept file, on success and failure alike. Every file it creates is
 * tracked by {@link org.offlink.streamer.io.ExitCleanup}, whose hook each command's main registers,
 * so an interrupt removes them too.
 */
public final class TempFiles implements AutoCloseable {
  private final Path tempDirectory;
  private final Path workingDirectory;
  private final boolean saveTemps;
  private final boolean verbose;
  private final PrintStream err;
  private final List<Path> toDelete = new ArrayList<>();
  private final List<String> kept = new ArrayList<>();
  private boolean closed;

  /** Creates an empty scope. */
  public TempFiles(
      Path tempDirectory,
      Path workingDirectory,
      boolean saveTemps,
      boolean verbose,
      PrintStream err) {
    this.tempDirectory = Objects.requireNonNull(tempDirectory, "tempDirectory");
    this.workingDirectory = Objects.requireNonNull(workingDirectory, "workingDirectory");
    this.saveTemps = saveTemps;
    this.verbose = verbose;
    this.err = Objects.requireNonNull(err, "err");
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
    Path file = TempDirectory.createFile(tempDirectory, suffix);
    toDelete.add(file);
    return file.toString();
  }

  /** A temp file that is deleted at close even with -save-temps (GCC's response files). */
  public synchronized Path scratch(String suffix) throws IOException {
    Path file = TempDirectory.createFile(tempDirectory, suffix);
    toDelete.add(file);
    return file;
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
        TempDirectory.delete(p);
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
