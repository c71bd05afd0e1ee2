package org.offlink.ltowrapper.cache;

import org.offlink.bridge.image.ImageCounts;
import org.offlink.bridge.tool.OffloadTarget;

/**
 * What the object of a cache entry must be before a link uses it, local or remote: the entry's
 * checksum only says it is whole, this says it is ours. A device image's entry must be exactly a
 * wrapper object offlink's writer makes for its target ({@link WrapperObjectCheck}); a device
 * partition's must parse as a partition artifact of its target (lto-wrapper's {@code
 * CachedPartitions}).
 */
public interface EntryCheck {
  /**
   * The counts {@code object} registers, when it is what this check accepts.
   *
   * @throws CacheEntryException naming what the object is instead
   */
  ImageCounts counts(byte[] object) throws CacheEntryException;

  /** The check of a device image's entry: a wrapper object offlink writes for {@code target}. */
  static EntryCheck wrapperObject(OffloadTarget target) {
    return new WrapperObjectCheck(target);
  }
}
