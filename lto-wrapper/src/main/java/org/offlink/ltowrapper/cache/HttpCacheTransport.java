package org.offlink.ltowrapper.cache;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * GET and PUT of whole blobs below a remote cache's base URL, over HTTP/1.1 with the JDK's client,
 * within the settings' timeouts (the request limit covers the whole exchange, body included).
 * Counts the body bytes it moves. Thread-safe.
 */
final class HttpCacheTransport {
  private final RemoteCacheSettings settings;
  private final HttpClient client;
  private final AtomicLong bytesReceived = new AtomicLong();
  private final AtomicLong bytesSent = new AtomicLong();

  HttpCacheTransport(RemoteCacheSettings settings) {
    this.settings = settings;
    this.client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(settings.connectTimeout())
            // A redirect could carry the Authorization header elsewhere: a 3xx is a failure.
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
  }

  /**
   * The blob at {@code path} ({@code ac/<key>} or {@code cas/<hash>}), or empty on 404.
   *
   * @throws RemoteCacheException on any other status or a connection-level failure
   */
  Optional<byte[]> get(String path) throws RemoteCacheException {
    HttpResponse<byte[]> response = send(request(path).GET().build(), "GET " + path);
    if (response.statusCode() == 404) {
      return Optional.empty();
    }
    requireSuccess(response, "GET " + path);
    bytesReceived.addAndGet(response.body().length);
    return Optional.of(response.body());
  }

  /**
   * Stores {@code body} at {@code path}.
   *
   * @throws RemoteCacheException on a status other than 2xx or a connection-level failure
   */
  void put(String path, byte[] body) throws RemoteCacheException {
    HttpRequest request =
        request(path)
            .header("Content-Type", "application/octet-stream")
            .PUT(HttpRequest.BodyPublishers.ofByteArray(body))
            .build();
    requireSuccess(send(request, "PUT " + path), "PUT " + path);
    bytesSent.addAndGet(body.length);
  }

  long bytesReceived() {
    return bytesReceived.get();
  }

  long bytesSent() {
    return bytesSent.get();
  }

  private HttpRequest.Builder request(String path) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(settings.base() + "/" + path))
            .timeout(settings.requestTimeout());
    settings.authorization().ifPresent(value -> b.header("Authorization", value));
    return b;
  }

  private HttpResponse<byte[]> send(HttpRequest request, String what) throws RemoteCacheException {
    CompletableFuture<HttpResponse<byte[]>> answer =
        client.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray());
    try {
      // The future's limit also bounds a body that trickles in after the headers.
      return answer.get(settings.requestTimeout().toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      answer.cancel(true);
      throw new RemoteCacheException(what + ": " + noAnswer(), true);
    } catch (InterruptedException e) {
      answer.cancel(true);
      Thread.currentThread().interrupt();
      throw new RemoteCacheException(what + ": interrupted", true);
    } catch (ExecutionException e) {
      throw new RemoteCacheException(what + ": " + describe(e.getCause()), true);
    }
  }

  private String describe(Throwable cause) {
    if (cause instanceof HttpConnectTimeoutException) {
      return "no connection within " + seconds(settings.connectTimeout().toMillis()) + " s";
    }
    if (cause instanceof java.net.http.HttpTimeoutException) {
      return noAnswer();
    }
    String detail = cause.getMessage() == null ? "" : " (" + cause.getMessage() + ")";
    if (cause instanceof ConnectException) {
      return "cannot connect" + detail;
    }
    return (cause instanceof IOException ? "I/O error" : cause.getClass().getSimpleName()) + detail;
  }

  private String noAnswer() {
    return "no answer within " + seconds(settings.requestTimeout().toMillis()) + " s";
  }

  private static String seconds(long millis) {
    return java.math.BigDecimal.valueOf(millis, 3).stripTrailingZeros().toPlainString();
  }

  private static void requireSuccess(HttpResponse<byte[]> response, String what)
      throws RemoteCacheException {
    int status = response.statusCode();
    if (status < 200 || status > 299) {
      throw new RemoteCacheException(what + ": HTTP " + status, false);
    }
  }
}
