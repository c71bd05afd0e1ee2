package org.offlink.ltowrapper.cache;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.offlink.bridge.OfflinkFlags;
import org.offlink.ltowrapper.io.ScannedInputs;
import org.offlink.runtime.LinkContext;

/**
 * Sets up one link's {@link ImageCache} from its plan's flags and targets and its environment: on
 * unless {@code OFFLINK_FLAGS=--no-cache}, {@code OFFLINK_REPRODUCE} (a bundle records the accel
 * steps) or no cache folder can be named; remote when {@code OFFLINK_REMOTE_CACHE} is set.
 */
public final class LinkCaches {
  private LinkCaches() {}

  /**
   * The cache for a link, or empty when it is off.
   *
   * @param context the link (its environment is also mkoffload's)
   * @param flags the link plan's {@code OFFLINK_FLAGS}
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
      List<String> targets,
      ScannedInputs scans,
      Consumer<String> warn,
      Optional<Consumer<String>> tell,
      Optional<Consumer<String>> explain) {
    Map<String, String> environment = context.environment();
    if (!flags.cache()) {
      return Optional.empty();
    }
    if (!environment.getOrDefault("OFFLINK_REPRODUCE", "").isEmpty()) {
      // A bundle is for replaying the accel steps: this link runs them.
      explain.ifPresent(t -> t.accept("offload image cache: off (OFFLINK_REPRODUCE)"));
      return Optional.empty();
    }
    Optional<CacheSettings> settings;
    try {
      settings = CacheSettings.fromEnvironment(environment, context.workingDirectory());
    } catch (IllegalArgumentException e) {
      warn.accept(e.getMessage() + "; the offload image cache is off");
      return Optional.empty();
    }
    if (settings.isEmpty()) {
      explain.ifPresent(
          t -> t.accept("offload image cache: off (no OFFLINK_CACHE_DIR, XDG_CACHE_HOME or HOME)"));
      return Optional.empty();
    }
    ImageKeys keys =
        new ImageKeys(
            environment, flags, context.workingDirectory(), context.tempDirectory(), scans);
    ImageCache cache =
        new ImageCache(
            context.scope(),
            settings.get(),
            keys,
            remote(environment, flags.remoteCacheReadOnly(), warn),
            warn,
            tell);
    cache.prepare(targets);
    return Optional.of(cache);
  }

  /** The remote cache {@code OFFLINK_REMOTE_CACHE} names; a bad setting is one warning. */
  private static Optional<RemoteImageCache> remote(
      Map<String, String> environment, boolean readOnly, Consumer<String> warn) {
    try {
      return RemoteCacheSettings.fromEnvironment(environment, readOnly)
          .map(settings -> new BazelHttpCache(settings, warn));
    } catch (IllegalArgumentException e) {
      warn.accept(e.getMessage() + "; the remote cache is not used");
      return Optional.empty();
    }
  }
}
