package org.offlink.ltowrapper.offload;

import java.util.concurrent.CountDownLatch;
import org.offlink.bridge.image.ImageCounts;
import org.offlink.ltowrapper.cache.CacheKey;
import org.offlink.ltowrapper.cache.CachedImage;
import org.offlink.ltowrapper.cache.ImageCache;

/**
 * Stores a freshly built wrapper object in the image cache off the link's path. Its thread starts
 * with the build and makes the entry's folder while the accel compiler runs; it writes the entry
 * the moment mkoffload has the object in memory, while mkoffload writes its output (a cold cache's
 * store was ~3 ms on the link's path: reading the object back, the folders, the entry). {@link
 * #finish} waits for it: when the build returns, the entry is stored. An object offered by a build
 * that then fails is still the image its key names, so it stays.
 */
final class ParallelStore {
  private final ImageCache cache;
  private final CacheKey key;
  private final CountDownLatch decided = new CountDownLatch(1);
  private final Thread thread;
  private volatile CachedImage offered;

  /** Starts the thread, which waits for {@link #offer} or {@link #finish}. */
  ParallelStore(ImageCache cache, CacheKey key) {
    this.cache = cache;
    this.key = key;
    this.thread = new Thread(this::storeWhenOffered, "offlink-cache-store");
    thread.setDaemon(true);
    thread.start();
  }

  /** Stores {@code object}; the first offer counts, later ones are ignored. */
  void offer(byte[] object, ImageCounts counts) {
    if (offered == null) {
      offered = new CachedImage(object, counts);
      decided.countDown();
    }
  }

  /**
   * Waits for the store to end (at once when nothing was offered).
   *
   * @return the bytes stored, or -1 when no object was offered (the caller stores, if anything)
   */
  long finish() {
    decided.countDown();
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
    CachedImage image = offered;
    return image == null ? -1 : image.object().length;
  }

  private void storeWhenOffered() {
    cache.prepareStore(key);
    try {
      decided.await();
    } catch (InterruptedException e) {
      return; // nobody interrupts this thread; if something does, the image is built, not stored
    }
    CachedImage image = offered;
    if (image != null) {
      cache.store(key, image);
    }
  }
}
