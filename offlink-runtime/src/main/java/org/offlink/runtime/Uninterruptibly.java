package org.offlink.runtime;

/**
 * Waits that must be seen through even when the waiting thread is interrupted: ending a child's
 * feeder, a store of the cache or a watchdog thread, none of which may outlive the caller. An
 * interrupt that came meanwhile is kept: the flag is set again once the wait is over.
 */
public final class Uninterruptibly {
  private Uninterruptibly() {}

  /** A wait that an interrupt can cut short. */
  @FunctionalInterface
  public interface Wait {
    /** Waits. */
    void run() throws InterruptedException;
  }

  /** Runs {@code wait} again until it returns without being interrupted. */
  public static void await(Wait wait) {
    boolean interrupted = false;
    while (true) {
      try {
        wait.run();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
