package org.offlink.ltowrapper.cache;

import java.net.SocketTimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.offlink.runtime.Uninterruptibly;

/**
 * Closes one HTTP exchange's connection once its request limit has passed, as long as the exchange
 * has not started to read an answer's body.
 *
 * <p>Why it stands down at the body: a socket write has no timeout of its own, so a server that
 * stops reading a PUT body (or never sends an answer's head) would hold the link for ever without
 * it; closing there ({@code HttpURLConnection.disconnect} before an input stream exists) closes the
 * socket at once. Once the body is being read, a close from this thread cannot unblock a read (the
 * JDK's keep-alive stream holds a lock across each read) and it races with the reader: a stream
 * whose body is unread is handed to the JDK's keep-alive cleaner, which holds that same lock while
 * it drains the rest, and a reader that reaches the stream just then waits for the whole trickle (a
 * unit test once waited 20 s for a 1 s limit). The reader bounds a body itself, checking the
 * deadline after every read, each read bounded by the read timeout.
 *
 * <p>Exactly one of the two happens, decided by one compare-and-set: this thread closes the
 * connection, or the reader owns it. After {@link #stop} returns, no close from this thread is
 * under way.
 */
final class RequestWatchdog {
  private static final int ARMED = 0;
  private static final int READING_BODY = 1;
  private static final int FIRED = 2;
  private static final int STOPPED = 3;

  private final AtomicInteger state = new AtomicInteger(ARMED);
  private final Thread thread;

  /**
   * Starts watching: after {@code limitMillis} (at least 1) runs {@code close} unless the exchange
   * has begun to read a body or has been stopped.
   */
  RequestWatchdog(Runnable close, long limitMillis) {
    thread =
        new Thread(
            () -> {
              try {
                Thread.sleep(Math.max(1, limitMillis));
              } catch (InterruptedException stopped) {
                return;
              }
              if (state.compareAndSet(ARMED, FIRED)) {
                close.run();
              }
            },
            "offlink-remote-cache-watchdog");
    thread.setDaemon(true);
    thread.start();
  }

  /**
   * Called before an answer's body is read: from here on only the caller touches the connection.
   *
   * @throws SocketTimeoutException when the limit has already passed (the connection is closed or
   *     being closed, and must not be read)
   */
  void readingBody() throws SocketTimeoutException {
    if (!state.compareAndSet(ARMED, READING_BODY) && state.get() != READING_BODY) {
      throw new SocketTimeoutException("request limit reached");
    }
  }

  /**
   * Whether the limit passed before the body was reached (so this thread closed the connection).
   */
  boolean fired() {
    return state.get() == FIRED;
  }

  /**
   * Ends the watch. When it had already fired, waits until its close has returned, so the caller's
   * own clean-up never runs beside it.
   */
  void stop() {
    if (state.compareAndSet(ARMED, STOPPED) || state.get() == READING_BODY) {
      thread.interrupt();
      return;
    }
    Uninterruptibly.await(thread::join);
  }
}
