package org.offlink.ltowrapper.cache;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Where the local device-image cache lives and how large it may grow: {@code $OFFLINK_CACHE_DIR},
 * else {@code $XDG_CACHE_HOME/offlink}, else {@code $HOME/.cache/offlink}; at most {@code
 * $OFFLINK_CACHE_MAX} bytes (a number with an optional {@code K}, {@code M}, {@code G} or {@code T}
 * suffix, powers of 1024; default 5 GiB); private to the user unless {@code
 * OFFLINK_CACHE_SHARED_GROUP} names the group of a team cache ({@link CacheTrust}).
 *
 * @param directory the cache folder
 * @param maxBytes the size limit, beyond which the least recently used entries are evicted
 * @param sharedGroup the group whose members may write the cache (a name or a gid); empty: only the
 *     user
 */
public record CacheSettings(Path directory, long maxBytes, Optional<String> sharedGroup) {
  /** The default size limit, 5 GiB. */
  public static final long DEFAULT_MAX = 5L << 30;

  /** Checks the fields. */
  public CacheSettings {
    Objects.requireNonNull(directory, "directory");
    Objects.requireNonNull(sharedGroup, "sharedGroup");
    if (maxBytes <= 0) {
      throw new IllegalArgumentException("cache size limit must be positive: " + maxBytes);
    }
  }

  /** A private cache in {@code directory}. */
  public CacheSettings(Path directory, long maxBytes) {
    this(directory, maxBytes, Optional.empty());
  }

  /**
   * The settings {@code environment} gives (a relative {@code OFFLINK_CACHE_DIR} is taken from
   * {@code workingDirectory}); empty when it names no folder at all (no {@code OFFLINK_CACHE_DIR},
   * {@code XDG_CACHE_HOME} or {@code HOME}).
   *
   * @throws IllegalArgumentException for an {@code OFFLINK_CACHE_MAX} that is not a size, with a
   *     one-line message naming the variable
   */
  public static Optional<CacheSettings> fromEnvironment(
      Map<String, String> environment, Path workingDirectory) {
    Optional<Path> dir = directory(environment, workingDirectory);
    if (dir.isEmpty()) {
      return Optional.empty();
    }
    String max = environment.get("OFFLINK_CACHE_MAX");
    long limit = max == null || max.isEmpty() ? DEFAULT_MAX : parseSize("OFFLINK_CACHE_MAX", max);
    String group = environment.getOrDefault(CacheTrust.SHARED_GROUP_VARIABLE, "").strip();
    return Optional.of(
        new CacheSettings(
            dir.get(), limit, group.isEmpty() ? Optional.empty() : Optional.of(group)));
  }

  private static Optional<Path> directory(Map<String, String> environment, Path workingDirectory) {
    String own = environment.get("OFFLINK_CACHE_DIR");
    if (own != null && !own.isEmpty()) {
      return Optional.of(workingDirectory.resolve(own));
    }
    String xdg = environment.get("XDG_CACHE_HOME");
    // The XDG base-directory rule: a relative value is invalid and ignored.
    if (xdg != null && xdg.startsWith("/")) {
      return Optional.of(Path.of(xdg, "offlink"));
    }
    String home = environment.get("HOME");
    if (home != null && home.startsWith("/")) {
      return Optional.of(Path.of(home, ".cache", "offlink"));
    }
    return Optional.empty();
  }

  /**
   * Parses a size such as {@code 5G}, {@code 500M} or {@code 1048576}.
   *
   * @param what where the text came from, for the message ({@code OFFLINK_CACHE_MAX})
   * @throws IllegalArgumentException naming {@code what}, what was expected and found
   */
  public static long parseSize(String what, String text) {
    String t = text.strip().toUpperCase(Locale.ROOT);
    int shift = -1;
    if (!t.isEmpty()) {
      switch (t.charAt(t.length() - 1)) {
        case 'K' -> shift = 10;
        case 'M' -> shift = 20;
        case 'G' -> shift = 30;
        case 'T' -> shift = 40;
        default -> shift = -1;
      }
    }
    String digits = shift >= 0 ? t.substring(0, t.length() - 1) : t;
    long n;
    try {
      n = Long.parseLong(digits);
    } catch (NumberFormatException e) {
      n = -1;
    }
    if (n <= 0 || (shift > 0 && n > (Long.MAX_VALUE >> shift))) {
      throw new IllegalArgumentException(
          what + ": expected a positive size such as 5G, 500M or 1048576, found '" + text + "'");
    }
    return shift > 0 ? n << shift : n;
  }
}
