package org.offlink.ltowrapper.jobs;

import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;

/** At most {@code n} jobs at a time ({@code -flto=N}, {@code -flto=auto}, or serial with 1). */
public final class FixedTokenPool implements TokenPool {
  private final Semaphore slots;

  /** Creates a pool of {@code n} (at least 1) slots. */
  public FixedTokenPool(int n) {
    this.slots = new Semaphore(Math.max(1, n), true);
  }

  @Override
  public Token acquire() throws InterruptedException {
    slots.acquire();
    AtomicBoolean released = new AtomicBoolean();
    return () -> {
      if (released.compareAndSet(false, true)) {
        slots.release();
      }
    };
  }

  @Override
  public void close() {}
}
