package org.offlink.ltowrapper.cache;

import java.util.HexFormat;
import java.util.Objects;

/**
 * A device-image cache key: the SHA-256, in lower-case hex, of everything that can change one
 * target's image or its wrapper object ({@link ImageKeys}). The same name in the local cache
 * directory and on a remote cache ({@code ac/<hex>}).
 *
 * @param hex 64 lower-case hex digits
 */
public record CacheKey(String hex) {
  /** Checks the spelling. */
  public CacheKey {
    Objects.requireNonNull(hex, "hex");
    if (hex.length() != 64 || !isLowerHex(hex)) {
      throw new IllegalArgumentException("not a SHA-256 in lower-case hex: '" + hex + "'");
    }
  }

  /** The key of a finished digest. */
  public static CacheKey of(byte[] sha256) {
    if (sha256.length != 32) {
      throw new IllegalArgumentException("a SHA-256 has 32 bytes, not " + sha256.length);
    }
    return new CacheKey(HexFormat.of().formatHex(sha256));
  }

  /** The first 12 digits, for messages. */
  public String abbreviated() {
    return hex.substring(0, 12);
  }

  private static boolean isLowerHex(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'f')) {
        return false;
      }
    }
    return true;
  }
}
