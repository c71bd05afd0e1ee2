package org.offlink.ltowrapper.jobs;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

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

  /** Submits a job; it starts once a token is available. */
  public <T> Future<T> submit(Callable<T> job) {
    return executor.submit(
        () -> {
          try (TokenPool.Token token = pool.acquire()) {
            return job.call();
          }
        });
  }

  /**
   * Waits for every future in order and returns their results; if any failed, waits for all the
   * others too (so no child outlives the run) and rethrows the first failure's cause.
   */
  public static <T> List<T> awaitAll(List<Future<T>> futures) {
    List<T> results = new ArrayList<>();
    RuntimeException first = null;
    for (Future<T> f : futures) {
      try {
        results.add(f.get());
      } catch (ExecutionException e) {
        Throwable c = e.getCause();
        if (first == null) {
          first = c instanceof RuntimeException ? (RuntimeException) c : new JobFailedException(c);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        if (first == null) {
          first = new JobFailedException(e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
    return results;
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }

  /** A job failed with a checked exception. */
  public static final class JobFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    JobFailedException(Throwable cause) {
      super(String.valueOf(cause.getMessage()), cause);
    }
  }
}
