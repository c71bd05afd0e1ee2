package org.offlink.ltowrapper.offload;

import java.util.Objects;
import java.util.Optional;
import org.offlink.bridge.image.ImageCounts;
import org.offlink.bridge.mkoffload.MkoffloadFailure;
import org.offlink.bridge.process.CommandResult;

/**
 * What an {@link ImageBuilder} ended with: mkoffload's status and output, as a child's; when it
 * succeeded, the counts of the image it wrapped (empty when they cannot be known: a foreign
 * mkoffload's object that cannot be read back); when an in-process mkoffload failed, why, typed (a
 * mkoffload run as a program says so only in its output).
 *
 * @param run mkoffload's status and output
 * @param counts the image's counts, on success
 * @param failure an in-process mkoffload's failure
 */
public record ImageResult(
    CommandResult run, Optional<ImageCounts> counts, Optional<MkoffloadFailure> failure) {
  /** Checks the fields. */
  public ImageResult {
    Objects.requireNonNull(run, "run");
    Objects.requireNonNull(counts, "counts");
    Objects.requireNonNull(failure, "failure");
  }

  /** A run with no typed failure: a program's, or one that succeeded. */
  public ImageResult(CommandResult run, Optional<ImageCounts> counts) {
    this(run, counts, Optional.empty());
  }

  /** Whether mkoffload exited with status 0. */
  public boolean succeeded() {
    return run.succeeded();
  }
}
