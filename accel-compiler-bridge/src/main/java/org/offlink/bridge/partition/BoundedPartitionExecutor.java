package org.offlink.bridge.partition;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.offlink.runtime.Futures;

/**
 * A {@link PartitionExecutor} of a fixed number of threads: the standalone mkoffload's, where no
 * lto-wrapper shares its job slots.
 */
public final class BoundedPartitionExecutor implements PartitionExecutor {
  private final int jobs;

  /** At most {@code jobs} (at least 1) jobs at a time. */
  public BoundedPartitionExecutor(int jobs) {
    this.jobs = Math.max(1, jobs);
  }

  @Override
  public <T> List<T> runAll(List<PartitionJob<T>> work) throws IOException {
    if (work.size() == 1 || jobs == 1) {
      List<T> out = new ArrayList<>();
      for (PartitionJob<T> job : work) {
        out.add(job.run());
      }
      return out;
    }
    AtomicInteger n = new AtomicInteger();
    ExecutorService pool =
        Executors.newFixedThreadPool(
            Math.min(jobs, work.size()),
            r -> {
              Thread t = new Thread(r, "offlink-device-job-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    try {
      List<Future<T>> futures = new ArrayList<>();
      for (PartitionJob<T> job : work) {
        futures.add(pool.submit(() -> job.run()));
      }
      return collect(futures);
    } finally {
      pool.shutdownNow();
      awaitQuietly(pool);
    }
  }

  /** The results in order; after every job has ended, the first failure. */
  static <T> List<T> collect(List<Future<T>> futures) throws IOException {
    return Futures.awaitAll(futures, BoundedPartitionExecutor::rethrow);
  }

  private static IOException rethrow(Throwable t) {
    if (t instanceof IOException io) {
      return io;
    }
    if (t instanceof UncheckedIOException u) {
      return u.getCause();
    }
    if (t instanceof RuntimeException r) {
      throw r;
    }
    if (t instanceof Error e) {
      throw e;
    }
    return new IOException(t);
  }

  private static void awaitQuietly(ExecutorService pool) {
    try {
      pool.awaitTermination(1, TimeUnit.HOURS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
