package org.offlink.ltowrapper.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link HttpCacheTransport} against a scripted server on a raw socket, for what nginx will not do:
 * trickle a body, redirect, and show the request exactly as it arrived.
 */
class HttpCacheTransportTest {
  private final List<String> requests = new CopyOnWriteArrayList<>();
  private ServerSocket server;
  private RawHttp raw;

  @AfterEach
  void stop() throws IOException {
    if (server != null) {
      server.close();
    }
    if (raw != null) {
      raw.close();
    }
  }

  @Test
  void aBodyThatTricklesInIsCutOffAtTheRequestLimit() throws Exception {
    // Each byte comes well within the read timeout; only the deadline can stop it.
    HttpCacheTransport transport = transport(serve("HTTP/1.1 200 OK\r\nContent-Length: 100", 200));
    long start = System.nanoTime();
    RemoteCacheException e =
        assertThrows(
            RemoteCacheException.class, () -> transport.get("cas/trickle", 100, deadline(1)));
    long millis = (System.nanoTime() - start) / 1_000_000;
    assertEquals("GET cas/trickle: no answer within 1 s", e.getMessage());
    assertTrue(e.unreachable());
    assertTrue(millis >= 900 && millis < 2500, "the 1 s limit, took " + millis + " ms");
    assertEquals(0, transport.bytesReceived());
  }

  @Test
  void aServerThatStopsReadingAPutCannotHoldTheLink() throws Exception {
    // Accepts, then reads nothing: once the socket buffers are full a write blocks, and a socket
    // write has no timeout of its own.
    server = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
    List<Socket> held = new CopyOnWriteArrayList<>();
    Thread acceptor =
        new Thread(
            () -> {
              try {
                while (true) {
                  held.add(server.accept());
                }
              } catch (IOException closed) {
                // the test is over
              }
            });
    acceptor.setDaemon(true);
    acceptor.start();
    HttpCacheTransport transport = transport(server.getLocalPort());
    long start = System.nanoTime();
    RemoteCacheException e =
        assertThrows(
            RemoteCacheException.class,
            () -> transport.put("cas/big", new byte[64 << 20], deadline(1)));
    long millis = (System.nanoTime() - start) / 1_000_000;
    assertTrue(e.unreachable(), e.getMessage());
    assertTrue(millis < 5000, "the 1 s limit, took " + millis + " ms");
    for (Socket s : held) {
      s.close();
    }
  }

  @Test
  void aRedirectIsAFailureThatNamesOnlyTheOriginAndIsNotFollowed() throws Exception {
    int elsewhere = RemoteCacheFixtures.freePort();
    HttpCacheTransport transport =
        transport(
            serve(
                "HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:"
                    + elsewhere
                    + "/x?X-Amz-Signature=s3cr3t\r\nContent-Length: 0",
                0));
    RemoteCacheException e =
        assertThrows(RemoteCacheException.class, () -> transport.get("ac/moved", 100, deadline(1)));
    assertEquals(
        "GET ac/moved: HTTP 302, a redirect to http://127.0.0.1:" + elsewhere + " (not followed)",
        e.getMessage());
    assertTrue(e.unreachable(), "a server that redirects is not asked again");
    assertEquals(1, requests.size(), requests.toString());
  }

  @Test
  void aContentLengthOverTheBoundIsRefusedBeforeReadingTheBody() throws Exception {
    HttpCacheTransport transport =
        transport(serve("HTTP/1.1 200 OK\r\nContent-Length: 10737418240", 0));
    long start = System.nanoTime();
    RemoteCacheException e =
        assertThrows(
            RemoteCacheException.class, () -> transport.get("ac/huge", 65536, deadline(5)));
    assertEquals(
        "GET ac/huge: an answer of 10737418240 bytes (Content-Length), over the limit of 65536",
        e.getMessage());
    assertTrue(System.nanoTime() - start < 2_000_000_000L, "not a timeout");
    assertEquals(0, transport.bytesReceived());
  }

  @Test
  void anEndlessChunkedBodyIsCutOffAtTheBound() throws Exception {
    HttpCacheTransport transport = transport(serveEndlessChunks());
    RemoteCacheException e =
        assertThrows(
            RemoteCacheException.class, () -> transport.get("ac/endless", 1 << 20, deadline(5)));
    assertEquals(
        "GET ac/endless: an answer longer than the limit of 1048576 bytes", e.getMessage());
    assertTrue(e.unreachable());
  }

  @Test
  void oneDeadlineCoversEveryRequestOfALookUp() throws Exception {
    HttpCacheTransport transport =
        transport(serve("HTTP/1.1 404 Not Found\r\nContent-Length: 0", 0));
    long deadline = deadline(1);
    assertTrue(transport.get("ac/a", 100, deadline).isEmpty());
    Thread.sleep(1100);
    RemoteCacheException e =
        assertThrows(RemoteCacheException.class, () -> transport.get("cas/b", 100, deadline));
    assertEquals("GET cas/b: no answer within 1 s", e.getMessage());
    assertEquals(1, requests.size(), "the second request is not even sent: " + requests);
  }

  @Test
  void aPutSendsTheBodyWithItsTypeLengthAndAuthorization() throws Exception {
    HttpCacheTransport transport = transport(serve("HTTP/1.1 201 Created\r\nContent-Length: 0", 0));
    byte[] body = RemoteCacheFixtures.object(100_000);
    transport.put("cas/blob", body, deadline(1));

    assertEquals(1, requests.size(), requests.toString());
    List<String> lines = List.of(requests.get(0).split("\r\n"));
    assertEquals("PUT /cache/cas/blob HTTP/1.1", lines.get(0));
    assertTrue(lines.contains("Content-Type: application/octet-stream"), lines.toString());
    assertTrue(lines.contains("Content-Length: 100000"), lines.toString());
    assertTrue(lines.contains("Authorization: Basic c2VjcmV0"), lines.toString());
    assertEquals(100_000, transport.bytesSent());
  }

  private static long deadline(int seconds) {
    return System.nanoTime() + seconds * 1_000_000_000L;
  }

  /** Answers every request with a chunked 200 whose chunks never end. */
  private int serveEndlessChunks() throws IOException {
    raw =
        new RawHttp(
            s -> {
              requests.add(RawHttp.readHead(s.getInputStream()));
              RawHttp.endlessChunks(s.getOutputStream());
            });
    return raw.port();
  }

  private HttpCacheTransport transport(int port) {
    URI base = URI.create("http://127.0.0.1:" + port + "/cache");
    Duration second = Duration.ofSeconds(1);
    return new HttpCacheTransport(
        new RemoteCacheSettings(base, false, Optional.of("Basic c2VjcmV0"), second, second));
  }

  /**
   * Answers each connection with {@code head}, then (when {@code trickleMillis} is positive) one
   * byte of body per {@code trickleMillis}. Records each request's head.
   */
  private int serve(String head, long trickleMillis) throws IOException {
    raw = new RawHttp(s -> answer(s, head, trickleMillis));
    return raw.port();
  }

  private void answer(Socket s, String head, long trickleMillis)
      throws IOException, InterruptedException {
    String request = RawHttp.readHead(s.getInputStream());
    requests.add(request);
    if (request.startsWith("PUT ")) {
      int length = Integer.parseInt(RawHttp.header(request, "Content-Length"));
      s.getInputStream().readNBytes(length);
    }
    OutputStream out = s.getOutputStream();
    out.write(RawHttp.ascii(head + "\r\n\r\n"));
    out.flush();
    for (int i = 0; trickleMillis > 0 && i < 100; i++) {
      Thread.sleep(trickleMillis);
      out.write('x');
      out.flush();
    }
  }
}
