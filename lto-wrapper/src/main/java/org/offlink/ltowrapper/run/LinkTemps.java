package org.offlink.ltowrapper.run;

import java.io.IOException;
import java.nio.file.Path;
import org.offlink.bridge.process.ScratchFiles;
import org.offlink.bridge.temp.TempFiles;
import org.offlink.runtime.IoReasons;
import org.offlink.runtime.LinkContext;
import org.offlink.runtime.LinkScope;

/**
 * lto-wrapper's view of the run's {@link TempFiles} scope: the same files and rules, with failures
 * as {@link LtoWrapperException} (one {@code fatal error:} line) and {@code maybe_unlink}'s {@code
 * [Leaving LTRANS f]} line under {@code -save-temps -v}. Files still owned at {@link #cleanup} are
 * removed: on failure that is everything not yet handed to the linker plugin.
 */
public final class LinkTemps {
  private final TempFiles files;
  private final boolean verbose;
  private final Diagnostics diag;
  private final LinkScope scope;

  /** Creates the scope in the temporary folder of {@code context}'s link. */
  public LinkTemps(LinkContext context, boolean saveTemps, boolean verbose, Diagnostics diag) {
    this.files = new TempFiles(context, saveTemps, false);
    this.verbose = verbose;
    this.diag = diag;
    this.scope = context.scope();
  }

  /** The link's scope, which tracks every file for removal when the link is cancelled. */
  public LinkScope scope() {
    return scope;
  }

  /** Whether {@code -save-temps} is in effect. */
  public boolean saveTemps() {
    return files.saveTemps();
  }

  /** Creates an empty private file {@code <tmp>/ccXXXXXX<suffix>} owned by the run. */
  public Path create(String suffix) {
    try {
      return files.create(suffix);
    } catch (IOException e) {
      throw new LtoWrapperException(e.getMessage(), e);
    }
  }

  /**
   * Response files' temp files ({@code make_temp_file ("")}) as this scope's: removed by {@link
   * #maybeUnlink} after the run, or at {@link #cleanup} if the run never got that far.
   */
  public ScratchFiles scratch() {
    return new ScratchFiles() {
      @Override
      public Path create() {
        return LinkTemps.this.create("");
      }

      @Override
      public void delete(Path file) {
        maybeUnlink(file.toString());
      }
    };
  }

  /** See {@link TempFiles#register}. */
  public void register(String name) {
    try {
      files.register(name);
    } catch (IOException e) {
      throw new LtoWrapperException(e.getMessage(), e);
    }
  }

  /** Hands a file over to the linker plugin: it is no longer ours to delete. */
  public void release(String name) {
    files.release(name);
  }

  /** GCC's {@code maybe_unlink} of {@code name} (relative to the working directory). */
  public void maybeUnlink(String name) {
    boolean kept;
    try {
      kept = files.unlink(name);
    } catch (IOException e) {
      throw new LtoWrapperException(
          "deleting LTRANS file " + IoReasons.describe(files.path(name).toString(), e), e);
    }
    if (kept && verbose) {
      diag.verbose("[Leaving LTRANS " + name + "]");
    }
  }

  /** Removes every file still owned (unless {@code -save-temps}); never throws. */
  public void cleanup() {
    try {
      files.close();
    } catch (IOException e) {
      // best effort, as GCC's cleanup at exit
    }
  }
}
