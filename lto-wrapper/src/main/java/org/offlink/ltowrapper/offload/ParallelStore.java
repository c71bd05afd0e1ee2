package org.offlink.ltowrapper.offload;

import java.util.concurrent.CountDownLatch;
import org.offlink.bridge.image.ImageCounts;
import org.offlink.ltowrapper.cache.CacheKey;
import org.offlink.ltowrapper.cache.CachedImage;
import org.offlink.ltowrapper.cache.ImageCache;

/**
 * Stores a freshly built wrapper object in the image cache off the link's path, as the {@link
 * ImageBuilder.BuildWatcher} of its build. Its thread starts when the build starts its first
 * program (the accel compiler, which leaves this JVM waiting) and gets the entry's folder ready
 * meanwhile; it writes the entry the moment mkoffload has the object in memory, while mkoffload
 * writes its output. Before, the store read the object back and wrote it after mkoffload, ~3 ms on
 * the link's path; a thread started with the build, or its folders, took CPU from the build's own
 * start-up. {@link #finish} waits for it: when the build returns, the entry is stored. An object
 * offered by a build that then fails is still the image its key names, so it stays.
 */
final class ParallelStore implements ImageBuilder.BuildWatcher {
  private final ImageCache cache;
  private final CacheKey key;
  private final CountDownLatch decided = new CountDownLatch(1);
  private Thread thread;
  private volatile CachedImage offered;

  ParallelStore(ImageCache cache, CacheKey key) {
    this.cache = cache;
    this.key = key;
  }

  @Override
  public void programStarting() {
    if (thread == null) {
      thread = new Thread(this::storeWhenOffered, "offlink-cache-store");
      thread.setDaemon(true);
      thread.start();
    }
  }

  /** Stores {@code object}; the first offer counts, later ones are ignored. */
  @Override
  public void objectReady(byte[] object, ImageCounts counts) {
    if (offered == null) {
      offered = new CachedImage(object, counts);
      decided.countDown();
      programStarting(); // a build that ran no program: the thread starts now
    }
  }

  /**
   * Waits for the store to end (at once when nothing was offered). Called on the building thread
   * once the build is over.
   *
   * @return the bytes stored, or -1 when no object was offered (the caller stores, if anything)
   */
  long finish() {
    decided.countDown();
    if (thread != null) {
      boolean interrupted = false;
      while (true) {
        try {
          thread.join();
          break;
        } catch (InterruptedException e) {
          interrupted = true; // the store is short and bounded: finish it, then pass it on
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
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
