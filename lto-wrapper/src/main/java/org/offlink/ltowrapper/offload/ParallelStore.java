package org.offlink.ltowrapper.offload;

import org.offlink.bridge.image.ImageCounts;
import org.offlink.ltowrapper.cache.CacheKey;
import org.offlink.ltowrapper.cache.CachedImage;
import org.offlink.ltowrapper.cache.ImageCache;

/**
 * Stores a freshly built wrapper object in the image cache on a thread of its own, started the
 * moment mkoffload has the object in memory, so that the entry is written while mkoffload writes
 * its output (a cold cache's store was ~3 ms on the link's path: reading the object back, the
 * folders, the entry). {@link #finish} waits for it: when the build returns, the entry is stored.
 * An object offered by a build that then fails is still the image its key names, so it stays.
 */
final class ParallelStore {
  private final ImageCache cache;
  private final CacheKey key;
  private Thread thread;
  private long bytes = -1;

  ParallelStore(ImageCache cache, CacheKey key) {
    this.cache = cache;
    this.key = key;
  }

  /** Starts storing {@code object}; called once, by the building thread. */
  void start(byte[] object, ImageCounts counts) {
    if (thread != null) {
      return;
    }
    CachedImage image = new CachedImage(object, counts);
    bytes = object.length;
    thread = new Thread(() -> cache.store(key, image), "offlink-cache-store");
    thread.start();
  }

  /**
   * Waits for the store to end.
   *
   * @return the bytes stored, or -1 when no object was offered (the caller stores, if anything)
   */
  long finish() {
    if (thread == null) {
      return -1;
    }
    boolean interrupted = false;
    while (true) {
      try {
        thread.join();
        break;
      } catch (InterruptedException e) {
        interrupted = true; // the store is short and bounded: finish it, then pass the interrupt on
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return bytes;
  }
}
