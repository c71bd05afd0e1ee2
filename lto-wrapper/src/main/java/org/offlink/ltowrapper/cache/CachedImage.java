package org.offlink.ltowrapper.cache;

import java.util.Objects;
import org.offlink.bridge.image.ImageCounts;

/**
 * What a cache entry holds for one target: the wrapper object mkoffload wrote (the device image
 * inside it) and the image's host-table counts, so a hit writes the object and runs the consistency
 * check without any accel tool. The array is not copied: callers hand it over.
 *
 * @param object the wrapper object's bytes
 * @param counts the image's function and variable counts
 */
public record CachedImage(byte[] object, ImageCounts counts) {
  /** Checks the fields. */
  public CachedImage {
    Objects.requireNonNull(object, "object");
    Objects.requireNonNull(counts, "counts");
  }
}
