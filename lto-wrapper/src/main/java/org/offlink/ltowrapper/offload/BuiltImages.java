package org.offlink.ltowrapper.offload;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.offlink.bridge.image.GcnImage;
import org.offlink.bridge.image.ImageCounts;
import org.offlink.bridge.image.NvptxImage;
import org.offlink.bridge.mkoffload.MkoffloadListener;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.CommandResult;
import org.offlink.bridge.tool.OffloadTarget;

/**
 * The counts of the images that offlink's in-process mkoffload built in this run, by wrapper
 * object, so that the consistency check need not read back an object that was written a moment ago
 * (a subprocess mkoffload's object is still read back). Forwards every event to the listener it
 * wraps (the link report's). Called from the job threads.
 */
public final class BuiltImages implements MkoffloadListener {
  private final MkoffloadListener next;
  private final Map<Path, ImageCounts> counts = new ConcurrentHashMap<>();

  /** Records images and passes every event on to {@code next}. */
  public BuiltImages(MkoffloadListener next) {
    this.next = Objects.requireNonNull(next, "next");
  }

  /** The counts of the image written to {@code object}, when this run's mkoffload built it. */
  public Optional<ImageCounts> counts(Path object) {
    return Optional.ofNullable(counts.get(key(object)));
  }

  @Override
  public void started(OffloadTarget target) {
    next.started(target);
  }

  @Override
  public void commandFinished(OffloadTarget target, Command command, CommandResult result) {
    next.commandFinished(target, command, result);
  }

  @Override
  public void nvptxImageBuilt(Path object, NvptxImage image) {
    counts.put(key(object), ImageCounts.of(image));
    next.nvptxImageBuilt(object, image);
  }

  @Override
  public void gcnImageBuilt(Path object, GcnImage image) {
    counts.put(key(object), ImageCounts.of(image));
    next.gcnImageBuilt(object, image);
  }

  private static Path key(Path object) {
    return object.toAbsolutePath().normalize();
  }
}
