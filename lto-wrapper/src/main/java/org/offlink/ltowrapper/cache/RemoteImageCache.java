package org.offlink.ltowrapper.cache;

import java.util.Optional;
import org.offlink.bridge.tool.OffloadTarget;

/**
 * A cache shared across machines. Never fails a link: a server that is slow, failing or
 * unreachable, or a blob that does not match its digest, is a miss, with one warning per link; once
 * the server could not be reached or did not answer in time it is not asked again in that link.
 */
public interface RemoteImageCache {
  /**
   * The entry under {@code key}, verified against its digests and by {@code check} (for an image: a
   * wrapper object offlink writes for its target), or empty.
   */
  Optional<CachedImage> get(CacheKey key, EntryCheck check);

  /** The image of {@code target} under {@code key}: {@link #get(CacheKey, EntryCheck)}. */
  default Optional<CachedImage> get(CacheKey key, OffloadTarget target) {
    return get(key, EntryCheck.wrapperObject(target));
  }

  /** Stores {@code image} under {@code key} (nothing when read-only or after a failure). */
  void put(CacheKey key, CachedImage image);
}
