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
 * HttpURLConnection}, within a deadline the caller sets for a whole operation (an entry and its
 * blobs): the connect limit covers opening each connection, the deadline everything, bodies
 * included. Until an answer's head is in, a {@link RequestWatchdog} closes the connection at the
 * deadline (a socket write has no timeout); a body is cut off by its reader, which checks the
 * deadline after every read (so a body that trickles in ends at the deadline, and one that stalls
 * at most one read timeout after it). Every answer's body is read against a size bound: a {@code
 * Content-Length} over it is refused before a byte is read, and a body without one is cut off where
 * it passes the bound. No redirect is followed (one to another origin could carry the credentials
 * away); a 3xx says where it pointed (the origin only). Counts the body bytes it moves.
 * Thread-safe.
 *
 * <p>Nothing is set up before the first request: {@code java.net.http.HttpClient} cost 0.5 s in a
 * cold JVM (about 0.2 s of it the default {@code SSLContext}, even for http://), which every link
 * paid as soon as {@code OFFLINK_REMOTE_CACHE} was set, even when the local cache hit.
 */
final class HttpCacheTransport {
  /** How much of a body moves between two looks at the clock. */
  private static final int CHUNK = 64 * 1024;

  /** The most of an error or PUT answer's body that is read (then the connection is dropped). */
  private static final long SMALL_BODY = 64 * 1024;

  private final RemoteCacheSettings settings;
  private final AtomicLong bytesReceived = new AtomicLong();
  private final AtomicLong bytesSent = new AtomicLong();

  HttpCacheTransport(RemoteCacheSettings settings) {
    this.settings = settings;
  }

  /**
   * The blob at {@code path} ({@code ac/<key>} or {@code cas/<hash>}), or empty on 404.
   *
   * @param maxBytes the largest body to take
   * @param deadline {@link System#nanoTime} by which the answer must be complete
   * @throws RemoteCacheException on any other status, a body over {@code maxBytes}, the deadline or
   *     a connection-level failure
   */
  Optional<byte[]> get(String path, long maxBytes, long deadline) throws RemoteCacheException {
    Optional<byte[]> blob =
        exchange(
            "GET",
            path,
            null,
            deadline,
            (connection, watchdog) -> {
              int status = head(connection, watchdog);
              if (status == 404) {
                drain(connection, connection.getErrorStream(), SMALL_BODY, deadline);
                return Optional.empty();
              }
              requireSuccess(connection, status);
              return Optional.of(
                  drain(connection, connection.getInputStream(), maxBytes, deadline));
            });
    blob.ifPresent(b -> bytesReceived.addAndGet(b.length));
    return blob;
  }

  /**
   * Stores {@code body} at {@code path}.
   *
   * @param deadline {@link System#nanoTime} by which the exchange must be complete
   * @throws RemoteCacheException on a status other than 2xx, the deadline or a connection-level
   *     failure
   */
  void put(String path, byte[] body, long deadline) throws RemoteCacheException {
    exchange(
        "PUT",
        path,
        body,
        deadline,
        (connection, watchdog) -> {
          try (OutputStream out = connection.getOutputStream()) {
            for (int at = 0; at < body.length; at += CHUNK) {
              checkDeadline(deadline);
              out.write(body, at, Math.min(CHUNK, body.length - at));
            }
          }
          requireSuccess(connection, head(connection, watchdog));
          return drain(connection, connection.getInputStream(), SMALL_BODY, deadline);
        });
    bytesSent.addAndGet(body.length);
  }

  long bytesReceived() {
    return bytesReceived.get();
  }

  long bytesSent() {
    return bytesSent.get();
  }

  /**
   * What one request does once connected; may throw {@link BadAnswerException}. It waits for the
   * answer's head with {@link #head} before it reads a body.
   */
  @FunctionalInterface
  private interface Step<T> {
    T run(HttpURLConnection connection, RequestWatchdog watchdog) throws IOException;
  }

  /**
   * Opens a connection for one request, runs {@code step} on it, and maps every failure to a {@link
   * RemoteCacheException}. A connection that failed is closed; one whose answer was read to the end
   * goes back to the JDK's keep-alive cache for the next request (one TLS handshake per link, not
   * one per blob).
   */
  private <T> T exchange(String method, String path, byte[] body, long deadline, Step<T> step)
      throws RemoteCacheException {
    String what = method + " " + path;
    long left = deadline - System.nanoTime();
    if (left <= 0) {
      throw new RemoteCacheException(what + ": " + noAnswer(), true);
    }
    HttpURLConnection connection = null;
    boolean connected = false;
    boolean clean = false;
    long start = System.nanoTime();
    RequestWatchdog watchdog = null;
    try {
      connection = open(method, path, body, left / 1_000_000);
      connection.connect();
      connected = true;
      watchdog =
          new RequestWatchdog(connection::disconnect, (deadline - System.nanoTime()) / 1_000_000);
      T result = step.run(connection, watchdog);
      clean = true;
      return result;
    } catch (BadAnswerException e) {
      throw new RemoteCacheException(what + ": " + e.getMessage(), e.stopAsking);
    } catch (IOException e) {
      boolean answerLate = connected || waitedRequestLimit(start);
      String why = watchdog != null && watchdog.fired() ? noAnswer() : describe(e, answerLate);
      throw new RemoteCacheException(what + ": " + why, true);
    } finally {
      if (watchdog != null) {
        // Waits for a close the watchdog has begun: the connection is touched by one thread at a
        // time.
        watchdog.stop();
      }
      if (!clean && connection != null) {
        connection.disconnect();
      }
    }
  }

  /**
   * The answer's status, once its head is in; from then on the body is the caller's to read and
   * bound ({@link RequestWatchdog#readingBody}).
   */
  private static int head(HttpURLConnection connection, RequestWatchdog watchdog)
      throws IOException {
    int status = connection.getResponseCode();
    watchdog.readingBody();
    return status;
  }

  private HttpURLConnection open(String method, String path, byte[] body, long leftMillis)
      throws IOException {
    HttpURLConnection c =
        (HttpURLConnection) URI.create(settings.base() + "/" + path).toURL().openConnection();
    c.setRequestMethod(method);
    c.setConnectTimeout(millis(Math.min(settings.connectTimeout().toMillis(), leftMillis)));
    // A server that never answers: each read waits at most what was left at the start (the JDK
    // fixes it at connect); the deadline check after every read bounds a body that trickles in.
    c.setReadTimeout(millis(leftMillis));
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

  /**
   * All of {@code in} (none when null), closed after, within the deadline and at most {@code
   * maxBytes}: a {@code Content-Length} over it is refused unread.
   */
  private static byte[] drain(HttpURLConnection c, InputStream in, long maxBytes, long deadline)
      throws IOException {
    if (in == null) {
      return new byte[0];
    }
    try (in) {
      long declared = c.getContentLengthLong();
      if (declared > maxBytes) {
        throw new BadAnswerException(
            "an answer of " + declared + " bytes (Content-Length), over the limit of " + maxBytes);
      }
      if (declared >= 0) {
        return readDeclared(in, (int) declared, deadline);
      }
      // No length: grows with what arrives, up to the bound.
      ByteArrayOutputStream out = new ByteArrayOutputStream(CHUNK);
      byte[] buffer = new byte[CHUNK];
      for (int n; (n = in.read(buffer)) >= 0; ) {
        if (out.size() + (long) n > maxBytes) {
          throw new BadAnswerException("an answer longer than the limit of " + maxBytes + " bytes");
        }
        out.write(buffer, 0, n);
        checkDeadline(deadline);
      }
      return out.toByteArray();
    }
  }

  /** The {@code length} bytes of a body with a {@code Content-Length}, within the deadline. */
  private static byte[] readDeclared(InputStream in, int length, long deadline) throws IOException {
    byte[] body = new byte[length];
    int at = 0;
    while (at < length) {
      int n = in.read(body, at, Math.min(CHUNK, length - at));
      if (n < 0) {
        throw new IOException("the answer ended after " + at + " of " + length + " bytes");
      }
      at += n;
      checkDeadline(deadline);
    }
    return body;
  }

  private static void checkDeadline(long deadline) throws SocketTimeoutException {
    if (System.nanoTime() - deadline > 0) {
      throw new SocketTimeoutException("request limit reached");
    }
  }

  private static void requireSuccess(HttpURLConnection c, int status) throws BadAnswerException {
    if (status >= 200 && status <= 299) {
      return;
    }
    String why = "HTTP " + status;
    if (status >= 300 && status <= 399) {
      why += ", a redirect to " + origin(c.getHeaderField("Location")) + " (not followed)";
    } else if (status == 401) {
      why += " (no valid credentials: " + RemoteCacheCredentials.FILE_VARIABLE + " or netrc)";
    } else if (status == 403) {
      why += " (the credentials are not allowed this)";
    }
    // A server that redirects or refuses the credentials will do so again: ask it no more.
    throw new BadAnswerException(why, status < 400 || status == 401 || status == 403);
  }

  /** Where a redirect points, scheme, host and port only: a path may hold a signed token. */
  private static String origin(String location) {
    if (location == null) {
      return "nowhere (no Location)";
    }
    try {
      URI u = URI.create(location.strip());
      if (u.getHost() == null) {
        return "a path on the same server";
      }
      return u.getScheme() + "://" + u.getHost() + (u.getPort() < 0 ? "" : ":" + u.getPort());
    } catch (IllegalArgumentException e) {
      return "an unreadable Location";
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

  /**
   * An answer the cache will not use: a status other than 2xx (404 on GET aside), or a body over
   * its bound. The server did answer; {@code stopAsking}: it is not asked again in this link.
   */
  private static final class BadAnswerException extends IOException {
    private static final long serialVersionUID = 1L;

    private final boolean stopAsking;

    BadAnswerException(String what, boolean stopAsking) {
      super(what);
      this.stopAsking = stopAsking;
    }

    /** An oversized body: a server that sends that is not asked again. */
    BadAnswerException(String what) {
      this(what, true);
    }
  }
}
