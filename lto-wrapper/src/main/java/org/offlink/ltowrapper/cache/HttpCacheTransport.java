package org.offlink.ltowrapper.cache;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.HttpURLConnection;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * GET and PUT of whole blobs below a remote cache's base URL, over HTTP/1.1 with {@link
 * HttpURLConnection}, within the settings' timeouts: the connect limit covers opening the
 * connection, the request limit the rest of the exchange, body included. Counts the body bytes it
 * moves. Thread-safe.
 *
 * <p>Nothing is set up before the first request: {@code java.net.http.HttpClient} cost 0.5 s in a
 * cold JVM (about 0.2 s of it the default {@code SSLContext}, even for http://), which every link
 * paid as soon as {@code OFFLINK_REMOTE_CACHE} was set, even when the local cache hit.
 */
final class HttpCacheTransport {
  /** How much of a body moves between two looks at the clock. */
  private static final int CHUNK = 64 * 1024;

  private final RemoteCacheSettings settings;
  private final AtomicLong bytesReceived = new AtomicLong();
  private final AtomicLong bytesSent = new AtomicLong();

  HttpCacheTransport(RemoteCacheSettings settings) {
    this.settings = settings;
  }

  /**
   * The blob at {@code path} ({@code ac/<key>} or {@code cas/<hash>}), or empty on 404.
   *
   * @throws RemoteCacheException on any other status or a connection-level failure
   */
  Optional<byte[]> get(String path) throws RemoteCacheException {
    Optional<byte[]> blob =
        exchange(
            "GET",
            path,
            null,
            (connection, deadline) -> {
              int status = connection.getResponseCode();
              if (status == 404) {
                drain(connection.getErrorStream(), deadline);
                return Optional.empty();
              }
              requireSuccess(status);
              return Optional.of(drain(connection.getInputStream(), deadline));
            });
    blob.ifPresent(b -> bytesReceived.addAndGet(b.length));
    return blob;
  }

  /**
   * Stores {@code body} at {@code path}.
   *
   * @throws RemoteCacheException on a status other than 2xx or a connection-level failure
   */
  void put(String path, byte[] body) throws RemoteCacheException {
    exchange(
        "PUT",
        path,
        body,
        (connection, deadline) -> {
          try (OutputStream out = connection.getOutputStream()) {
            for (int at = 0; at < body.length; at += CHUNK) {
              checkDeadline(deadline);
              out.write(body, at, Math.min(CHUNK, body.length - at));
            }
          }
          requireSuccess(connection.getResponseCode());
          return drain(connection.getInputStream(), deadline);
        });
    bytesSent.addAndGet(body.length);
  }

  long bytesReceived() {
    return bytesReceived.get();
  }

  long bytesSent() {
    return bytesSent.get();
  }

  /** What one request does once connected; may throw {@link HttpStatusException}. */
  @FunctionalInterface
  private interface Step<T> {
    T run(HttpURLConnection connection, long deadline) throws IOException;
  }

  /**
   * Opens a connection for one request, runs {@code step} on it, and maps every failure to a {@link
   * RemoteCacheException}. A connection that failed is closed; one whose answer was read to the end
   * goes back to the JDK's keep-alive cache for the next request (one TLS handshake per link, not
   * one per blob).
   */
  private <T> T exchange(String method, String path, byte[] body, Step<T> step)
      throws RemoteCacheException {
    String what = method + " " + path;
    HttpURLConnection connection = null;
    boolean connected = false;
    boolean clean = false;
    long start = System.nanoTime();
    Watchdog watchdog = null;
    try {
      connection = open(method, path, body);
      connection.connect();
      connected = true;
      long deadline = System.nanoTime() + settings.requestTimeout().toNanos();
      watchdog = new Watchdog(connection, settings.requestTimeout().toMillis());
      T result = step.run(connection, deadline);
      clean = true;
      return result;
    } catch (HttpStatusException e) {
      throw new RemoteCacheException(what + ": HTTP " + e.status, false);
    } catch (IOException e) {
      boolean answerLate = connected || waitedRequestLimit(start);
      String why = watchdog != null && watchdog.fired ? noAnswer() : describe(e, answerLate);
      throw new RemoteCacheException(what + ": " + why, true);
    } finally {
      if (watchdog != null) {
        watchdog.thread.interrupt();
      }
      if (!clean && connection != null) {
        connection.disconnect();
      }
    }
  }

  /**
   * Closes a connection once the request limit has passed: a socket write has no timeout of its
   * own, so a server that stops reading a PUT body would otherwise hold the link for ever (and a
   * trickling body is cut at the limit, not a read timeout after it).
   */
  private static final class Watchdog {
    private final Thread thread;
    private volatile boolean fired;

    Watchdog(HttpURLConnection connection, long limitMillis) {
      thread =
          new Thread(
              () -> {
                try {
                  Thread.sleep(limitMillis);
                  fired = true;
                  connection.disconnect();
                } catch (InterruptedException done) {
                  // the exchange ended in time
                }
              },
              "offlink-remote-cache-watchdog");
      thread.setDaemon(true);
      thread.start();
    }
  }

  private HttpURLConnection open(String method, String path, byte[] body) throws IOException {
    HttpURLConnection c =
        (HttpURLConnection) URI.create(settings.base() + "/" + path).toURL().openConnection();
    c.setRequestMethod(method);
    c.setConnectTimeout(millis(settings.connectTimeout().toMillis()));
    // A server that never answers: each read waits at most the request limit; the deadline
    // checks between chunks bound a body that trickles in.
    c.setReadTimeout(millis(settings.requestTimeout().toMillis()));
    // A redirect could carry the Authorization header elsewhere: a 3xx is a failure.
    c.setInstanceFollowRedirects(false);
    c.setUseCaches(false);
    c.setRequestProperty("Accept", "*/*");
    settings.authorization().ifPresent(value -> c.setRequestProperty("Authorization", value));
    if (body != null) {
      c.setDoOutput(true);
      c.setFixedLengthStreamingMode(body.length);
      c.setRequestProperty("Content-Type", "application/octet-stream");
    }
    return c;
  }

  /** All of {@code in} (none when null), closed after, within the deadline. */
  private static byte[] drain(InputStream in, long deadline) throws IOException {
    if (in == null) {
      return new byte[0];
    }
    try (in) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buffer = new byte[CHUNK];
      for (int n; (n = in.read(buffer)) >= 0; ) {
        out.write(buffer, 0, n);
        checkDeadline(deadline);
      }
      return out.toByteArray();
    }
  }

  private static void checkDeadline(long deadline) throws SocketTimeoutException {
    if (System.nanoTime() - deadline > 0) {
      throw new SocketTimeoutException("request limit reached");
    }
  }

  private static void requireSuccess(int status) throws HttpStatusException {
    if (status < 200 || status > 299) {
      throw new HttpStatusException(status);
    }
  }

  /**
   * Whether a timeout in {@code connect()} was the request limit's: the TCP connect waits the
   * connect limit, but an https handshake after it reads under the request limit.
   */
  private boolean waitedRequestLimit(long start) {
    return settings.connectTimeout().compareTo(settings.requestTimeout()) < 0
        && System.nanoTime() - start >= settings.requestTimeout().toNanos();
  }

  /**
   * A connection-level failure in words; a timeout is the connect limit's unless {@code
   * answerLate}.
   */
  private String describe(IOException e, boolean answerLate) {
    if (e instanceof SocketTimeoutException) {
      return answerLate
          ? noAnswer()
          : "no connection within " + seconds(settings.connectTimeout().toMillis()) + " s";
    }
    String detail = e.getMessage() == null ? "" : " (" + e.getMessage() + ")";
    return (e instanceof ConnectException ? "cannot connect" : "I/O error") + detail;
  }

  private String noAnswer() {
    return "no answer within " + seconds(settings.requestTimeout().toMillis()) + " s";
  }

  private static String seconds(long millis) {
    return java.math.BigDecimal.valueOf(millis, 3).stripTrailingZeros().toPlainString();
  }

  private static int millis(long millis) {
    return (int) Math.min(Integer.MAX_VALUE, Math.max(1, millis));
  }

  /** A complete answer with a status other than 2xx (404 on GET aside): not a dead server. */
  private static final class HttpStatusException extends IOException {
    private static final long serialVersionUID = 1L;

    private final int status;

    HttpStatusException(int status) {
      super("HTTP " + status);
      this.status = status;
    }
  }
}
