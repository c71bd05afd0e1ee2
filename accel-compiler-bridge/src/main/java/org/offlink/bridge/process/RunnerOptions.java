package org.offlink.bridge.process;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * How a {@link SystemProcessRunner} behaves for one tool invocation: where {@code -v} echoes go,
 * whether to echo commands ({@code -v}), and GCC's response-file naming: with {@code -save-temps}
 * and a dump prefix the file is {@code <dumppfx><suffix>} and kept, otherwise a fresh {@code
 * cc??????} file in {@code tempDirectory}, deleted after the run.
 */
public record RunnerOptions(
    PrintStream err,
    boolean verbose,
    boolean saveTemps,
    Optional<String> dumppfx,
    Path tempDirectory) {
  /** Checks the fields. */
  public RunnerOptions {
    Objects.requireNonNull(err, "err");
    Objects.requireNonNull(dumppfx, "dumppfx");
    Objects.requireNonNull(tempDirectory, "tempDirectory");
  }

  /** Quiet, no save-temps. */
  public static RunnerOptions quiet(PrintStream err, Path tempDirectory) {
    return new RunnerOptions(err, false, false, Optional.empty(), tempDirectory);
  }
}
