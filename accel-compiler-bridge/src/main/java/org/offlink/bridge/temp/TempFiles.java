package org.offlink.bridge.temp;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.offlink.streamer.io.TempNames;

/**
 * Scoped temporary files with GCC's rules. {@link #named} gives {@code <saved name>} under {@code
 * -save-temps} (kept, and announced as {@code [Leaving <name>]} with {@code -v}) and otherwise a
 * fresh {@code <tmpdir>/ccXXXXXX<suffix>} like libiberty's {@code make_temp_file}; {@link #close}
 * deletes every non-kept file, on success and failure alike. For interrupts the CLI registers
 * {@link #cleanupHook()} as a shutdown hook; the library never registers hooks itself.
 */
public final class TempFiles implements AutoCloseable {
  private static final FileAttribute<Set<PosixFilePermission>> PRIVATE =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));

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
   * The directory {@code make_temp_file} uses: {@code TMPDIR}, {@code TMP}, {@code TEMP} (the first
   * naming a writable directory), else {@code /tmp}.
   */
  public static Path tempDirectory(Map<String, String> environment) {
    for (String name : List.of("TMPDIR", "TMP", "TEMP")) {
      String value = environment.get(name);
      if (value != null && !value.isEmpty()) {
        Path dir = Path.of(value);
        if (Files.isDirectory(dir) && Files.isWritable(dir)) {
          return dir;
        }
      }
    }
    return Path.of("/tmp");
  }

  /** Creates {@code <dir>/cc} + 6 random characters + {@code suffix}, mode 0600, like libiberty. */
  public static Path makeTempFile(Path dir, String suffix) throws IOException {
    for (int attempt = 0; attempt < TempNames.ATTEMPTS; attempt++) {
      Path file = dir.resolve("cc" + TempNames.random(6) + suffix);
      try {
        return Files.createFile(file, PRIVATE);
      } catch (FileAlreadyExistsException e) {
        // another name; make_temp_file retries the same way
      }
    }
    throw new IOException("cannot create temporary file in " + dir);
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
    Path file = makeTempFile(tempDirectory, suffix);
    toDelete.add(file);
    return file.toString();
  }

  /** A temp file that is deleted at close even with -save-temps (GCC's response files). */
  public synchronized Path scratch(String suffix) throws IOException {
    Path file = makeTempFile(tempDirectory, suffix);
    toDelete.add(file);
    return file;
  }

  /** Resolves a name returned by {@link #named} against the working directory. */
  public Path path(String name) {
    return workingDirectory.resolve(name);
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
        Files.deleteIfExists(p);
      } catch (IOException e) {
        failure = failure == null ? new IOException("deleting file " + p + ": " + e, e) : failure;
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

  /** A thread the CLI may register with {@link Runtime#addShutdownHook} for interrupts. */
  public Thread cleanupHook() {
    return new Thread(
        () -> {
          try {
            close();
          } catch (IOException e) {
            // at exit there is nobody left to report to; GCC's signal cleanup is silent too
          }
        },
        "offlink-temp-cleanup");
  }
}
