package org.offlink.ltowrapper.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.SocketTimeoutException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@link RequestWatchdog}: one of "closed at the limit" and "the reader owns the body" happens,
 * never both, and {@code stop} never leaves a close running.
 */
class RequestWatchdogTest {
  @Test
  void theLimitPassingBeforeTheBodyClosesOnceAndTheBodyIsNotRead() throws Exception {
    AtomicInteger closes = new AtomicInteger();
    CountDownLatch closed = new CountDownLatch(1);
    RequestWatchdog watchdog =
        new RequestWatchdog(
            () -> {
              closes.incrementAndGet();
              closed.countDown();
            },
            1);
    assertTrue(closed.await(10, TimeUnit.SECONDS), "the watchdog never fired");
    assertTrue(watchdog.fired());
    assertThrows(SocketTimeoutException.class, watchdog::readingBody);
    watchdog.stop();
    assertEquals(1, closes.get());
  }

  @Test
  void aBodyBeingReadIsNeverClosedUnderItsReader() throws Exception {
    AtomicInteger closes = new AtomicInteger();
    RequestWatchdog watchdog = new RequestWatchdog(closes::incrementAndGet, 50);
    watchdog.readingBody();
    watchdog.readingBody(); // a second look is allowed
    Thread.sleep(300);
    assertEquals(0, closes.get(), "closed under the reader");
    assertFalse(watchdog.fired());
    watchdog.stop();
  }

  @Test
  void stopBeforeTheLimitClosesNothing() throws Exception {
    AtomicInteger closes = new AtomicInteger();
    RequestWatchdog watchdog = new RequestWatchdog(closes::incrementAndGet, 100);
    watchdog.stop();
    Thread.sleep(300);
    assertEquals(0, closes.get());
    assertThrows(SocketTimeoutException.class, watchdog::readingBody, "a stopped exchange");
  }

  @Test
  void stopWaitsForACloseUnderWay() throws Exception {
    CountDownLatch closing = new CountDownLatch(1);
    AtomicInteger finished = new AtomicInteger();
    RequestWatchdog watchdog =
        new RequestWatchdog(
            () -> {
              closing.countDown();
              try {
                Thread.sleep(300);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              finished.incrementAndGet();
            },
            1);
    assertTrue(closing.await(10, TimeUnit.SECONDS), "the watchdog never fired");
    watchdog.stop();
    assertEquals(1, finished.get(), "stop returned while the close still ran");
  }
}
