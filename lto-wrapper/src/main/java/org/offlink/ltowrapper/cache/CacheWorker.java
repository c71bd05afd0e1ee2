package org.offlink.ltowrapper.cache;

import java.util.ArrayDeque;

/**
 * The one background thread of a link's image cache. It runs the key prelude first ({@link
 * ImageKeys#prelude}), then the short jobs handed to it, in order: a miss's entry folder and its
 * store, a trim. One thread for all of them because starting a thread costs a young JVM on a busy
 * 2-core machine ~1 ms of the starting thread's time, and a miss's store would otherwise start its
 * own on the link's path. A daemon: a link waits for the jobs it awaits itself, never for the
 * thread. A job must not throw; if one does anyway, the next job still runs.
 */
final class CacheWorker {
  private final ArrayDeque<Runnable> jobs = new ArrayDeque<>();
  private Thread thread;

  /** Starts the thread with {@code first} as its next job, ahead of any queued one. */
  synchronized void start(Runnable first) {
    jobs.addFirst(first);
    wake();
  }

  /** Runs {@code job} after the jobs handed over before it (starting the thread if need be). */
  synchronized void submit(Runnable job) {
    jobs.addLast(job);
    wake();
  }

  private void wake() {
    if (thread == null) {
      thread = new Thread(this::serve, "offlink-cache-worker");
      thread.setDaemon(true);
      thread.start();
    }
    notifyAll();
  }

  private void serve() {
    while (true) {
      Runnable job;
      synchronized (this) {
        while (jobs.isEmpty()) {
          try {
            wait();
          } catch (InterruptedException e) {
            return; // nobody interrupts this thread; if something does, the queued jobs are dropped
          }
        }
        job = jobs.removeFirst();
      }
      try {
        job.run();
      } catch (RuntimeException e) {
        // a job reports its own failures (the cache's warnings); this one is lost, not the thread
      }
    }
  }
}
