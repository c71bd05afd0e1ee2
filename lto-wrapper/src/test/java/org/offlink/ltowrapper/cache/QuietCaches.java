package org.offlink.ltowrapper.cache;

import java.util.concurrent.CountDownLatch;

/**
 * Waits for a cache's background jobs, for tests whose folders must be quiet before they go. The
 * jobs run one after the other in the order handed over, so once a job handed over last has run,
 * every job before it has ended.
 */
public final class QuietCaches {
  private QuietCaches() {}

  /** Returns once the jobs {@code cache} was handed before this call have ended. */
  public static void await(ImageCache cache) throws InterruptedException {
    CountDownLatch quiet = new CountDownLatch(1);
    cache.inBackground(quiet::countDown);
    quiet.await();
  }

  /** Returns once the jobs {@code worker} was handed before this call have ended. */
  static void await(CacheWorker worker) throws InterruptedException {
    CountDownLatch quiet = new CountDownLatch(1);
    worker.submit(quiet::countDown);
    quiet.await();
  }
}
