package org.offlink.ltowrapper;

import static org.offlink.bridge.temp.TempFiles.makeTempFile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Temporary files as a scoped resource with GCC's rules: {@link #create} is libiberty's {@code
 * make_temp_file} ({@code $TMPDIR}, {@code $TMP}, {@code $TEMP}, then {@code /tmp}; name {@code cc}
 * + 6 random characters + suffix; mode 0600); {@link #maybeUnlink} is lto-wrapper's {@code
 * maybe_unlink} (keep with {@code -save-temps}, printing {@code [Leaving LTRANS f]} when verbose).
 * Files still registered at {@link #cleanup} are removed: on failure that is everything not yet
 * handed to the linker plugin.
 */
public final class TempFiles {
  private final Path tempDir;
  private final Path cwd;
  private final boolean saveTemps;
  private final boolean verbose;
  private final Diagnostics diag;
  private final Set<Path> owned = new LinkedHashSet<>();

  /** Creates the scope. */
  public TempFiles(
      Map<String, String> env, Path cwd, boolean saveTemps, boolean verbose, Diagnostics diag) {
    this.tempDir = chooseDir(env, cwd);
    this.cwd = cwd;
    this.saveTemps = saveTemps;
    this.verbose = verbose;
    this.diag = diag;
  }

  static Path chooseDir(Map<String, String> env, Path cwd) {
    for (String name : new String[] {"TMPDIR", "TMP", "TEMP"}) {
      String v = env.get(name);
      if (v != null && !v.isEmpty() && Files.isDirectory(cwd.resolve(v))) {
        return cwd.resolve(v);
      }
    }
    return Path.of("/tmp");
  }

  /** Whether {@code -save-temps} is in effect. */
  public boolean saveTemps() {
    return saveTemps;
  }

  /** Creates an empty private file {@code <tmp>/ccXXXXXX<suffix>} and registers it. */
  public synchronized Path create(String suffix) {
    try {
      Path p = makeTempFile(tempDir, suffix);
      owned.add(p);
      return p;
    } catch (IOException e) {
      throw new LtoWrapperException("cannot create temporary file: " + e.getMessage(), e);
    }
  }

  /** Registers a file (e.g. a save-temps name) to be removed by {@link #cleanup} on failure. */
  public synchronized void register(String name) {
    owned.add(cwd.resolve(name));
  }

  /** Hands a file over to the linker plugin: it is no longer ours to delete. */
  public synchronized void release(String name) {
    owned.remove(cwd.resolve(name));
  }

  /** GCC's {@code maybe_unlink} of {@code name} (relative to the working directory). */
  public void maybeUnlink(String name) {
    Path file = cwd.resolve(name);
    synchronized (this) {
      owned.remove(file);
    }
    if (saveTemps) {
      if (verbose) {
        diag.verbose("[Leaving LTRANS " + name + "]");
      }
      return;
    }
    try {
      if (!Files.isDirectory(file)) {
        Files.deleteIfExists(file);
      }
    } catch (IOException e) {
      throw new LtoWrapperException("deleting LTRANS file " + file + ": " + e.getMessage(), e);
    }
  }

  /** Removes every registered file (unless {@code -save-temps}); never throws. */
  public void cleanup() {
    List<Path> files;
    synchronized (this) {
      files = new ArrayList<>(owned);
      owned.clear();
    }
    for (Path f : files) {
      try {
        if (!saveTemps) {
          Files.deleteIfExists(f);
        }
      } catch (IOException e) {
        // best effort, as GCC's cleanup at exit
      }
    }
  }
}
