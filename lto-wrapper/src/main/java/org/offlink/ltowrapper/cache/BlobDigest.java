package org.offlink.ltowrapper.cache;

import java.util.HexFormat;
import java.util.Objects;
import org.offlink.runtime.Sha256Digest;

/**
 * A content-addressed blob's name on a Bazel remote cache ({@code cas/<hash>}): its SHA-256 and its
 * length, as in {@code build.bazel.remote.execution.v2.Digest}.
 *
 * @param hash the SHA-256 in lower-case hex (64 digits)
 * @param sizeBytes the blob's length
 */
record BlobDigest(String hash, long sizeBytes) {
  /** Checks the spelling, so that a hash read from a server is safe to put in a URL. */
  BlobDigest {
    Objects.requireNonNull(hash, "hash");
    new CacheKey(hash); // the same 64 lower-case hex digits
    if (sizeBytes < 0) {
      throw new IllegalArgumentException("negative blob size " + sizeBytes);
    }
  }

  /** The digest of {@code blob}. */
  static BlobDigest of(byte[] blob) {
    return new BlobDigest(sha256Hex(blob), blob.length);
  }

  /** The blob's path below the cache's base URL. */
  String casPath() {
    return "cas/" + hash;
  }

  /**
   * Checks that {@code blob} is the one this digest names: the length first (cheap), then the hash.
   *
   * @throws RemoteCacheException naming the mismatch
   */
  void verify(byte[] blob) throws RemoteCacheException {
    String found = blob.length == sizeBytes ? sha256Hex(blob) : null;
    if (found == null || !found.equals(hash)) {
      throw new RemoteCacheException(
          casPath()
              + ": digest mismatch: expected "
              + sizeBytes
              + " bytes with SHA-256 "
              + hash
              + ", found "
              + blob.length
              + " bytes with SHA-256 "
              + (found != null ? found : sha256Hex(blob)),
          false);
    }
  }

  private static String sha256Hex(byte[] blob) {
    return HexFormat.of().formatHex(Sha256Digest.of(blob));
  }
}
