package org.offlink.bridge.process;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.offlink.runtime.WorkingDirectory;

/**
 * GCC's conventions for running a program, from {@code collect_execute} with {@code use_atfile}
 * (collect-utils.cc, CU:143–256, what {@code fork_execute} does): the one implementation behind
 * mkoffload's children ({@link SystemProcessRunner}) and lto-wrapper's children and in-process
 * mkoffload runs.
 *
 * <ul>
 *   <li>{@link #open}: with {@code -save-temps} and a suffix the response file is {@code
 *       <dumppfx><suffix>}, shown as named (relative to the working directory); otherwise a fresh
 *       temp file from {@link ScratchFiles}, shown by its absolute name;
 *   <li>{@link ResponseFile#write}: the arguments after argv[0], quoted by {@link
 *       ResponseFiles#format}, in the native charset;
 *   <li>{@link #echo}: with {@code -v}, the argv really run ({@code prog @file}) as one stderr
 *       line;
 *   <li>{@link #remove}: the file is deleted after the run unless {@code -save-temps}.
 * </ul>
 */
public final class CollectExecute {
  private final PrintStream err;
  private final boolean verbose;
  private final boolean saveTemps;
  private final Optional<String> dumppfx;
  private final ScratchFiles scratch;

  /**
   * Creates the conventions of one tool run: {@code -v} echoes go to {@code err}; {@code saveTemps}
   * keeps response files, named after {@code dumppfx} when there is one.
   */
  public CollectExecute(
      PrintStream err,
      boolean verbose,
      boolean saveTemps,
      Optional<String> dumppfx,
      ScratchFiles scratch) {
    this.err = Objects.requireNonNull(err, "err");
    this.verbose = verbose;
    this.saveTemps = saveTemps;
    this.dumppfx = Objects.requireNonNull(dumppfx, "dumppfx");
    this.scratch = Objects.requireNonNull(scratch, "scratch");
  }

  /** With {@code -v}, prints the argv about to run, words joined by spaces, as GCC does. */
  public void echo(List<String> argv) {
    if (verbose) {
      synchronized (err) {
        err.print(String.join(" ", argv) + "\n");
        err.flush();
      }
    }
  }

  /**
   * The response file for a run in {@code cwd}: {@code <dumppfx><suffix>} with {@code -save-temps}
   * when {@code suffix} is given, else a new temp file (kept too with {@code -save-temps}).
   */
  public ResponseFile open(Path cwd, Optional<String> suffix) throws IOException {
    if (saveTemps && dumppfx.isPresent() && suffix.isPresent()) {
      String name = dumppfx.get() + suffix.get();
      return new ResponseFile(name, WorkingDirectory.resolve(cwd, name));
    }
    Path file = scratch.create();
    return new ResponseFile(file.toString(), file);
  }

  /** Deletes {@code file} after its run unless {@code -save-temps} ({@code !save_temps_flag}). */
  public void remove(ResponseFile file) throws IOException {
    if (!saveTemps) {
      scratch.delete(file.path());
    }
  }
}
