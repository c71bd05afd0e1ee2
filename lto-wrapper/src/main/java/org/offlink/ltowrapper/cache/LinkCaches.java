package org.offlink.ltowrapper.cache;

import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.offlink.bridge.OfflinkFlags;
import org.offlink.bridge.gcc.GccInstallation;
import org.offlink.ltowrapper.io.ScannedInputs;
import org.offlink.runtime.LinkContext;

/**
 * Sets up one link's {@link ImageCache} from its plan: its flags, targets and {@link CacheRequest}
 * (on unless {@code OFFLINK_FLAGS=--no-cache}, {@code OFFLINK_REPRODUCE} (a bundle records the
 * accel steps) or no cache folder can be named; remote when {@code OFFLINK_REMOTE_CACHE} is set).
 */
public final class LinkCaches {
  private LinkCaches() {}

  /**
   * The cache for a link, or empty when it is off.
   *
   * @param context the link (its environment is also mkoffload's, and part of the image keys)
   * @param flags the link plan's {@code OFFLINK_FLAGS}
   * @param gcc the link plan's GCC installation, whose accel toolchains enter the keys
   * @param request the link plan's cache request
   * @param targets the link plan's offload targets, whose key work starts at once
   * @param scans the link's input scans
   * @param warn prints one warning line
   * @param tell prints each target's hit-or-miss line, under {@code -v} or {@code -save-temps}
   * @param explain prints why the cache is off, under {@code -v} only ({@code -save-temps} alone
   *     keeps stock's stderr when nothing is cached)
   */
  public static Optional<ImageCache> forLink(
      LinkContext context,
      OfflinkFlags flags,
      Optional<GccInstallation> gcc,
      CacheRequest request,
      List<String> targets,
      ScannedInputs scans,
      Consumer<String> warn,
      Optional<Consumer<String>> tell,
      Optional<Consumer<String>> explain) {
    if (request instanceof CacheRequest.Off off) {
      off.why().ifPresent(why -> explain.ifPresent(t -> t.accept(why)));
      return Optional.empty();
    }
    if (request instanceof CacheRequest.Malformed bad) {
      warn.accept(bad.message());
      return Optional.empty();
    }
    CacheRequest.On on = (CacheRequest.On) request;
    ImageKeys keys =
        new ImageKeys(
            context.environment(),
            flags,
            gcc,
            context.workingDirectory(),
            context.tempDirectory(),
            scans);
    on.remoteProblem().ifPresent(warn);
    ImageCache cache =
        new ImageCache(
            context.scope(),
            on.local(),
            keys,
            on.remote().<RemoteImageCache>map(settings -> new BazelHttpCache(settings, warn)),
            warn,
            tell);
    cache.prepare(targets);
    return Optional.of(cache);
  }
}
