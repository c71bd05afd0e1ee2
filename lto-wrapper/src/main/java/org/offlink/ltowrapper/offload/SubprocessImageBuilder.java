package org.offlink.ltowrapper.offload;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import org.offlink.bridge.image.ImageCounts;
import org.offlink.bridge.process.CommandResult;
import org.offlink.bridge.tool.OffloadTarget;
import org.offlink.bridge.wrapper.WrapperObjectReader;
import org.offlink.ltowrapper.exec.ChildRunner;
import org.offlink.runtime.WorkingDirectory;

/**
 * Runs mkoffload as a program, GCC's way ({@code mkoffload @file}); the image counts are read back
 * from the object it wrote.
 */
public final class SubprocessImageBuilder implements ImageBuilder {
  private final ChildRunner children;

  /** A builder running mkoffload through {@code children}. */
  public SubprocessImageBuilder(ChildRunner children) {
    this.children = children;
  }

  @Override
  public ImageResult build(ImageRequest request) {
    CommandResult run =
        children.runWithResponseFileCapturing(request.argv(), request.responseSuffix());
    if (!run.succeeded()) {
      return new ImageResult(run, Optional.empty());
    }
    return new ImageResult(run, readBack(request));
  }

  private Optional<ImageCounts> readBack(ImageRequest request) {
    Optional<OffloadTarget> target = OffloadTarget.byTriplet(request.target());
    if (target.isEmpty()) {
      return Optional.empty();
    }
    Path object = WorkingDirectory.resolve(children.context().workingDirectory(), request.output());
    try {
      return WrapperObjectReader.counts(object, target.get());
    } catch (IOException e) {
      return Optional.empty(); // not an object offlink can read back (a foreign mkoffload's)
    }
  }
}
