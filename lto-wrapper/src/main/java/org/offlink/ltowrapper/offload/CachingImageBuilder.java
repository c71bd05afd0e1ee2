package org.offlink.ltowrapper.offload;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.offlink.bridge.process.CommandResult;
import org.offlink.bridge.tool.OffloadTarget;
import org.offlink.ltowrapper.cache.CacheKey;
import org.offlink.ltowrapper.cache.ImageCache;
import org.offlink.ltowrapper.report.CacheOutcome;
import org.offlink.ltowrapper.report.LinkRecorder;
import org.offlink.runtime.AtomicFiles;
import org.offlink.runtime.LinkContext;
import org.offlink.runtime.WorkingDirectory;

/**
 * An {@link ImageBuilder} in front of offlink's in-process mkoffload that takes images from the
 * device-image cache: on a hit it writes the cached wrapper object where mkoffload would have and
 * returns its counts (no accel tool runs); on a miss it builds, and stores the object as mkoffload
 * writes it ({@link ParallelStore}). Only objects of offlink's own ELF writer are stored: a hit
 * must be exactly such an object ({@link org.offlink.bridge.wrapper.WrapperObjectVerifier}), which
 * a wrapper compiled from its C form ({@code --wrapper=c}, ILP32, a GCC 13+ gcn stack size) cannot
 * be, so those are built every time. Each target says hit or miss under {@code -v} and {@code
 * -save-temps} and in the link report.
 *
 * @param builder builds the image on a miss
 * @param cache the device-image cache
 * @param link the link (its working directory and scope)
 * @param report records each target's hit or miss
 */
record CachingImageBuilder(
    ImageBuilder builder, ImageCache cache, LinkContext link, LinkRecorder report)
    implements ImageBuilder {

  @Override
  public ImageResult build(ImageRequest request) {
    long start = System.nanoTime();
    String target = request.target();
    Optional<OffloadTarget> known = OffloadTarget.byTriplet(target);
    Optional<CacheKey> key =
        known.isEmpty()
            ? Optional.empty()
            : cache.key(target, request.arguments(), request.inputs());
    if (key.isEmpty()) {
      cache.tell("offload image cache: " + target + ": not used (accel toolchain not identified)");
      return builder.build(request);
    }
    Path out = WorkingDirectory.resolve(link.workingDirectory(), request.output());
    Optional<ImageCache.Hit> hit = cache.find(known.get(), key.get());
    if (hit.isPresent() && write(out, hit.get().image().object())) {
      ImageCache.Hit h = hit.get();
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      boolean local = h.source() == ImageCache.Source.LOCAL;
      cache.tell(
          "offload image cache: "
              + target
              + ": hit ("
              + (local ? "local" : "remote")
              + ") "
              + key.get().abbreviated());
      report.cacheUse(
          target,
          local ? CacheOutcome.HIT_LOCAL : CacheOutcome.HIT_REMOTE,
          key.get().hex(),
          h.image().object().length,
          took);
      return new ImageResult(
          new CommandResult(request.argv(), 0, "", "", took), Optional.of(h.image().counts()));
    }
    long lookup = System.nanoTime() - start;
    ParallelStore store = new ParallelStore(cache, key.get());
    ImageResult built;
    long stored;
    long storeStart;
    try {
      built = builder.build(request, store);
    } finally {
      storeStart = System.nanoTime();
      stored = store.finish(); // also when the build throws: an offered entry is written whole
    }
    if (stored < 0 && built.succeeded()) {
      cache.tell("offload image cache: " + target + ": a wrapper compiled from C is not stored");
    }
    cache.tell("offload image cache: " + target + ": miss " + key.get().abbreviated());
    report.cacheUse(
        target,
        CacheOutcome.MISS,
        key.get().hex(),
        Math.max(stored, 0),
        Duration.ofNanos(lookup + System.nanoTime() - storeStart));
    return built;
  }

  /** Writes a cached object into place; false (the image is built instead) if that fails. */
  private boolean write(Path out, byte[] object) {
    try {
      AtomicFiles.write(link.scope(), out, object);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
