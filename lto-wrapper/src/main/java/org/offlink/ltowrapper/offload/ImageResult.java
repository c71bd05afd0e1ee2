package org.offlink.ltowrapper.offload;

import java.util.Objects;
import java.util.Optional;
import org.offlink.bridge.image.ImageCounts;
import org.offlink.bridge.process.CommandResult;

/**
 * What an {@link ImageBuilder} ended with: mkoffload's status and output, as a child's, and when it
 * succeeded the counts of the image it wrapped (empty when they cannot be known: a foreign
 * mkoffload's object that cannot be read back).
 */
public record ImageResult(CommandResult run, Optional<ImageCounts> counts) {
  /** Checks the fields. */
  public ImageResult {
    Objects.requireNonNull(run, "run");
    Objects.requireNonNull(counts, "counts");
  }

  /** Whether mkoffload exited with status 0. */
  public boolean succeeded() {
    return run.succeeded();
  }
}
