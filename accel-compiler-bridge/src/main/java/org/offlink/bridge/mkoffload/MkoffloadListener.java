package org.offlink.bridge.mkoffload;

import java.nio.file.Path;
import org.offlink.bridge.image.GcnImage;
import org.offlink.bridge.image.NvptxImage;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.CommandResult;
import org.offlink.bridge.tool.OffloadTarget;

/**
 * Observes one in-process {@link Mkoffload} run, for callers that report on it (lto-wrapper's link
 * report): the run's start, every program it runs and the device image it built. Called on the
 * thread that runs mkoffload; every method defaults to doing nothing, and none may throw.
 */
public interface MkoffloadListener {
  /** The listener that ignores everything. */
  MkoffloadListener NONE = new MkoffloadListener() {};

  /** The run for {@code target} has started. */
  default void started(OffloadTarget target) {}

  /** A program run by mkoffload for {@code target} has finished (whatever its exit status). */
  default void commandFinished(OffloadTarget target, Command command, CommandResult result) {}

  /** The nvptx image written (as a wrapper object) to {@code object}. */
  default void nvptxImageBuilt(Path object, NvptxImage image) {}

  /** The gcn image written (as a wrapper object) to {@code object}. */
  default void gcnImageBuilt(Path object, GcnImage image) {}
}
