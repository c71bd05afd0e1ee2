package org.offlink.ltowrapper.cache;

import java.util.Objects;
import org.offlink.bridge.image.ImageCounts;
import org.offlink.bridge.tool.OffloadTarget;
import org.offlink.bridge.wrapper.WrapperMismatchException;
import org.offlink.bridge.wrapper.WrapperObjectVerifier;

/**
 * A device image's entry check: the object is exactly a wrapper object offlink's writer makes for
 * {@code target} ({@link WrapperObjectVerifier}: no constructor, code or symbol of anyone else's).
 */
record WrapperObjectCheck(OffloadTarget target) implements EntryCheck {
  WrapperObjectCheck {
    Objects.requireNonNull(target, "target");
  }

  @Override
  public ImageCounts counts(byte[] object) throws CacheEntryException {
    try {
      return WrapperObjectVerifier.verify(object, target);
    } catch (WrapperMismatchException e) {
      throw new CacheEntryException(
          "not a " + target.triplet() + " wrapper object offlink writes: " + e.getMessage());
    }
  }
}
