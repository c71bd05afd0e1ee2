package org.offlink.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.Function;

/** Waiting for a batch of concurrent jobs (host LTRANS jobs, device partitions). */
public final class Futures {
  private Futures() {}

  /**
   * Waits for every future in order and returns their results. If any failed, it still waits for
   * all the others (so no child outlives the run), then throws what {@code failure} makes of the
   * first failure: the job's own exception, or the {@link InterruptedException} when this thread
   * was interrupted (its interrupt flag set again).
   */
  public static <T, E extends Exception> List<T> awaitAll(
      List<Future<T>> futures, Function<Throwable, E> failure) throws E {
    List<T> results = new ArrayList<>();
    Throwable first = null;
    for (Future<T> f : futures) {
      try {
        results.add(f.get());
      } catch (ExecutionException e) {
        first = first == null ? e.getCause() : first;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        first = first == null ? e : first;
      }
    }
    if (first != null) {
      throw failure.apply(first);
    }
    return results;
  }
}
