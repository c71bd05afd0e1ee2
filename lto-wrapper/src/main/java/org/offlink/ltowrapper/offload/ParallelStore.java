package org.offlink.ltowrapper.offload;

import java.util.concurrent.CountDownLatch;
import org.offlink.bridge.image.ImageCounts;
import org.offlink.ltowrapper.cache.CacheKey;
import org.offlink.ltowrapper.cache.CachedImage;
import org.offlink.ltowrapper.cache.ImageCache;
import org.offlink.runtime.Uninterruptibly;

/**
 * Stores a freshly built wrapper object in the image cache off the link's path, as the {@link
 * ImageBuilder.BuildWatcher} of its build, through the cache's background thread ({@link
 * ImageCache#inBackground}). When the build starts its first program (the accel compiler, which
 * leaves this JVM waiting), the entry's folder is made ready; the moment mkoffload has the object
 * in memory, the entry is written, while mkoffload writes its output. Before, the store read the
 * object back and wrote it after mkoffload, ~3 ms on the link's path. {@link #finish} waits for the
 * store: when the build returns, the entry is stored. An object offered by a build that then fails
 * is still the image its key names, so it stays.
 */
final class ParallelStore implements ImageBuilder.BuildWatcher {
  private final ImageCache cache;
  private final CacheKey key;
  private final CountDownLatch stored = new CountDownLatch(1);
  private boolean preparing;
  private CachedImage offered;

  ParallelStore(ImageCache cache, CacheKey key) {
    this.cache = cache;
    this.key = key;
  }

  @Override
  public void programStarting() {
    if (!preparing) {
      preparing = true;
      cache.inBackground(() -> cache.prepareStore(key));
    }
  }

  /** Stores {@code object}; the first offer counts, later ones are ignored. */
  @Override
  public void objectReady(byte[] object, ImageCounts counts) {
    if (offered != null) {
      return;
    }
    CachedImage image = new CachedImage(object, counts);
    offered = image;
    cache.inBackground(
        () -> {
          try {
            cache.store(key, image);
          } finally {
            stored.countDown();
          }
        });
  }

  /**
   * Waits for the store to end (at once when nothing was offered). Called on the building thread,
   * which also calls the watcher's methods, once the build is over.
   *
   * @return the bytes stored, or -1 when no object was offered (the caller stores, if anything)
   */
  long finish() {
    if (offered == null) {
      return -1;
    }
    // The store is short and bounded: finish it, then pass an interrupt on.
    Uninterruptibly.await(stored::await);
    return offered.object().length;
  }
}
