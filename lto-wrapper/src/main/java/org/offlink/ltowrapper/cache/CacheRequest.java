package org.offlink.ltowrapper.cache;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.offlink.bridge.OfflinkFlags;

/**
 * What a link's {@code OFFLINK_FLAGS} and environment ask of the device-image cache, read once with
 * the link plan. A malformed setting is kept as its one-line message: the link goes on, and {@link
 * LinkCaches} prints it where the cache would have been set up, as a warning.
 */
public sealed interface CacheRequest {
  /**
   * The cache is off without a word of warning.
   *
   * @param why what {@code -v} says about it; empty for {@code --no-cache}, which says nothing
   */
  record Off(Optional<String> why) implements CacheRequest {}

  /** The local cache's settings are malformed: the cache is off, with this one-line warning. */
  record Malformed(String message) implements CacheRequest {}

  /**
   * The cache is on.
   *
   * @param local the local cache
   * @param remote the remote cache {@code OFFLINK_REMOTE_CACHE} names, if any
   * @param remoteProblem why the remote cache named is not used (one line), if it is not
   */
  record On(
      CacheSettings local, Optional<RemoteCacheSettings> remote, Optional<String> remoteProblem)
      implements CacheRequest {}

  /**
   * The request of a link with these flags and this environment, whose relative {@code
   * OFFLINK_CACHE_DIR} is taken from {@code workingDirectory}. Nothing is read unless the cache is
   * on: a remote cache's credentials files only then.
   */
  static CacheRequest of(
      OfflinkFlags flags, Map<String, String> environment, Path workingDirectory) {
    if (!flags.cache()) {
      return new Off(Optional.empty());
    }
    if (!environment.getOrDefault("OFFLINK_REPRODUCE", "").isEmpty()) {
      // A bundle is for replaying the accel steps: this link runs them.
      return new Off(Optional.of("offload image cache: off (OFFLINK_REPRODUCE)"));
    }
    Optional<CacheSettings> local;
    try {
      local = CacheSettings.fromEnvironment(environment, workingDirectory);
    } catch (IllegalArgumentException e) {
      return new Malformed(e.getMessage() + "; the offload image cache is off");
    }
    if (local.isEmpty()) {
      return new Off(
          Optional.of("offload image cache: off (no OFFLINK_CACHE_DIR, XDG_CACHE_HOME or HOME)"));
    }
    try {
      return new On(
          local.get(),
          RemoteCacheSettings.fromEnvironment(environment, flags.remoteCacheReadOnly()),
          Optional.empty());
    } catch (IllegalArgumentException e) {
      return new On(
          local.get(),
          Optional.empty(),
          Optional.of(e.getMessage() + "; the remote cache is not used"));
    }
  }
}
