package org.offlink.ltowrapper.jobs;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.offlink.runtime.ErrorText;
import org.offlink.runtime.Futures;

/**
 * Runs independent jobs (offload images, WPA, LTRANS partitions) concurrently, each holding a
 * {@link TokenPool} slot while it runs. Results are collected in submission order, so callers print
 * in GCC's order whatever the completion order.
 */
public final class JobScheduler implements AutoCloseable {
  private final TokenPool pool;
  private final ExecutorService executor;

  /** Creates a scheduler over {@code pool}. */
  public JobScheduler(TokenPool pool) {
    this.pool = pool;
    AtomicInteger n = new AtomicInteger();
    this.executor =
        Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r, "lto-wrapper-job-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * Submits a job once a token is available. The token is taken in the caller's thread, so jobs
   * start in submission order (with one slot this is exactly GCC's serial order).
   */
  public <T> Future<T> submit(Callable<T> job) {
    TokenPool.Token token;
    try {
      token = pool.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new JobFailedException(e);
    } catch (java.io.IOException e) {
      throw new JobFailedException(e);
    }
    return executor.submit(
        () -> {
          try (token) {
            return job.call();
          }
        });
  }

  /**
   * Waits for every future in order and returns their results; if any failed, waits for all the
   * others too (so no child outlives the run) and rethrows the first failure's cause.
   */
  public static <T> List<T> awaitAll(List<Future<T>> futures) {
    return Futures.awaitAll(
        futures, c -> c instanceof RuntimeException r ? r : new JobFailedException(c));
  }

  /** Stops queued work and waits for running jobs, so no child outlives the run. */
  @Override
  public void close() {
    executor.shutdownNow();
    try {
      executor.awaitTermination(1, java.util.concurrent.TimeUnit.HOURS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** A job failed with a checked exception. */
  public static final class JobFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    JobFailedException(Throwable cause) {
      super(ErrorText.of(cause), cause);
    }
  }
}
