package org.offlink.bridge.process;

import java.util.Objects;
import java.util.Optional;
import org.offlink.runtime.LinkContext;

/**
 * How a {@link SystemProcessRunner} behaves for one tool invocation: the link it runs children for
 * (their echoes go to its stderr, its {@link org.offlink.runtime.LinkScope} ends them when the link
 * is cancelled, response files go to its temporary folder), whether to echo commands ({@code -v}),
 * and GCC's response-file naming: with {@code -save-temps} and a dump prefix the file is {@code
 * <dumppfx><suffix>} and kept, otherwise a fresh {@code cc??????} file in the temporary folder,
 * deleted after the run.
 *
 * @param context the link
 * @param verbose echo each command ({@code -v})
 * @param saveTemps keep named response files ({@code -save-temps})
 * @param dumppfx the dump prefix naming kept response files
 */
public record RunnerOptions(
    LinkContext context, boolean verbose, boolean saveTemps, Optional<String> dumppfx) {
  /** Checks the fields. */
  public RunnerOptions {
    Objects.requireNonNull(context, "context");
    Objects.requireNonNull(dumppfx, "dumppfx");
  }

  /** Quiet, no save-temps. */
  public static RunnerOptions quiet(LinkContext context) {
    return new RunnerOptions(context, false, false, Optional.empty());
  }
}
