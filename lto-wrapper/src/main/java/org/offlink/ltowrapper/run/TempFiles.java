package org.offlink.ltowrapper.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.offlink.streamer.io.ExitCleanup;
import org.offlink.streamer.io.IoReasons;
import org.offlink.streamer.io.TempDirectory;
import org.offlink.streamer.io.WorkingDirectory;

/**
 * Temporary files as a scoped resource with GCC's rules: {@link #create} is libiberty's {@code
 * make_temp_file} (in {@link TempDirectory}: libiberty's directory choice, name {@code cc} + 6
 * random characters + suffix, mode 0600); {@link #maybeUnlink} is lto-wrapper's {@code
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
    this.tempDir = TempDirectory.choose(env, cwd);
    this.cwd = cwd;
    this.saveTemps = saveTemps;
    this.verbose = verbose;
    this.diag = diag;
  }

  /** Whether {@code -save-temps} is in effect. */
  public boolean saveTemps() {
    return saveTemps;
  }

  /** Creates an empty private file {@code <tmp>/ccXXXXXX<suffix>} and registers it. */
  public synchronized Path create(String suffix) {
    try {
      Path p = TempDirectory.createFile(tempDir, suffix);
      owned.add(p);
      return p;
    } catch (IOException e) {
      throw new LtoWrapperException(e.getMessage(), e);
    }
  }

  /**
   * Registers a file that is ours to remove on failure or interrupt but that we did not create
   * (GCC's {@code tool_cleanup} list: the plugin's {@code -foffload-objects=} file). Nothing is
   * registered with {@code -save-temps}, where cleanup keeps everything.
   */
  public synchronized void register(String name) {
    if (saveTemps) {
      return;
    }
    Path file = WorkingDirectory.resolve(cwd, name);
    owned.add(file);
    try {
      ExitCleanup.track(file);
    } catch (IOException e) {
      throw new LtoWrapperException(e.getMessage(), e);
    }
  }

  /** Hands a file over to the linker plugin: it is no longer ours to delete. */
  public synchronized void release(String name) {
    Path file = WorkingDirectory.resolve(cwd, name);
    owned.remove(file);
    ExitCleanup.untrack(file);
  }

  /** GCC's {@code maybe_unlink} of {@code name} (relative to the working directory). */
  public void maybeUnlink(String name) {
    Path file = WorkingDirectory.resolve(cwd, name);
    synchronized (this) {
      owned.remove(file);
    }
    ExitCleanup.untrack(file);
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
      throw new LtoWrapperException(
          "deleting LTRANS file " + IoReasons.describe(file.toString(), e), e);
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
          TempDirectory.delete(f);
        }
      } catch (IOException e) {
        // best effort, as GCC's cleanup at exit
      }
    }
  }
}
