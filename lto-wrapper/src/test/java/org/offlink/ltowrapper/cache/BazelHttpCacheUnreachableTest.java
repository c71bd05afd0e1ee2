package org.offlink.ltowrapper.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.offlink.bridge.tool.OffloadTarget;

/**
 * A server that is down or never answers costs one connection attempt or one timeout per client,
 * gives one warning, and is not asked again: the rest of the link's targets do not wait on it.
 */
class BazelHttpCacheUnreachableTest {
  private final List<String> warnings = new ArrayList<>();

  @Test
  void aClosedPortIsAMissAndOneWarningAndIsNotTriedAgain() throws Exception {
    int port = RemoteCacheFixtures.freePort();
    BazelHttpCache client = client(port);
    CacheKey key = RemoteCacheFixtures.key("closed port");
    assertEquals(Optional.empty(), client.get(key, OffloadTarget.NVPTX));
    assertTrue(client.stats().unreachable());

    // Something listens there now: the client must not connect to it.
    try (ServerSocket later = listen(port)) {
      later.setSoTimeout(300);
      assertEquals(Optional.empty(), client.get(key, OffloadTarget.NVPTX));
      client.put(key, WrapperImages.nvptx(10, 1, 0, 0));
      assertNoConnection(later);
    }
    assertEquals(1, warnings.size(), warnings.toString());
    String prefix =
        "remote cache http://127.0.0.1:"
            + port
            + "/cache: GET ac/"
            + key.hex()
            + ": cannot connect";
    assertTrue(warnings.get(0).startsWith(prefix), warnings.get(0));
    assertTrue(warnings.get(0).endsWith("; building locally"), warnings.get(0));
    assertEquals(new RemoteCacheStats(0, 2, 0, 0, true), client.stats());
  }

  @Test
  void aServerThatNeverAnswersTimesOutOnceAndIsNotAskedAgain() throws Exception {
    List<Socket> held = new CopyOnWriteArrayList<>();
    try (ServerSocket silent = silent(held)) {
      BazelHttpCache client = client(silent.getLocalPort());
      CacheKey key = RemoteCacheFixtures.key("hanging");

      long start = System.nanoTime();
      assertEquals(Optional.empty(), client.get(key, OffloadTarget.NVPTX));
      long firstMillis = (System.nanoTime() - start) / 1_000_000;
      assertTrue(
          firstMillis >= 900 && firstMillis < 5000, "the 1 s limit, took " + firstMillis + " ms");

      start = System.nanoTime();
      assertEquals(Optional.empty(), client.get(key, OffloadTarget.NVPTX));
      client.put(key, WrapperImages.nvptx(10, 1, 0, 0));
      long laterMillis = (System.nanoTime() - start) / 1_000_000;
      assertTrue(laterMillis < 300, "not asked again, took " + laterMillis + " ms");
      assertEquals(1, held.size(), "one connection in all");
    } finally {
      for (Socket s : held) {
        s.close();
      }
    }
    assertEquals(1, warnings.size(), warnings.toString());
    assertTrue(
        warnings.get(0).contains(": no answer within 1 s; building locally"), warnings.get(0));
  }

  // Issue 27 item 12: a PUT that timed out said "building locally" after the image was built.
  @Test
  void anUploadThatTimesOutSaysTheUploadWasSkipped() throws Exception {
    List<Socket> held = new CopyOnWriteArrayList<>();
    try (ServerSocket silent = silent(held)) {
      BazelHttpCache client = client(silent.getLocalPort());
      client.put(RemoteCacheFixtures.key("slow upload"), WrapperImages.nvptx(10, 1, 0, 0));
    } finally {
      for (Socket s : held) {
        s.close();
      }
    }
    assertEquals(1, warnings.size(), warnings.toString());
    assertTrue(
        warnings.get(0).endsWith(": no answer within 1 s; the image was built, its upload skipped"),
        warnings.get(0));
    assertTrue(warnings.get(0).contains(": PUT cas/"), warnings.get(0));
  }

  private BazelHttpCache client(int port) {
    URI base = URI.create("http://127.0.0.1:" + port + "/cache");
    return RemoteCacheFixtures.client(base, Map.of(), false, warnings::add);
  }

  private static ServerSocket listen(int port) throws IOException {
    ServerSocket s = new ServerSocket();
    s.setReuseAddress(true);
    s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    return s;
  }

  private static void assertNoConnection(ServerSocket server) throws IOException {
    try (Socket unexpected = server.accept()) {
      throw new AssertionError(
          "the client connected again from " + unexpected.getRemoteSocketAddress());
    } catch (SocketTimeoutException expected) {
      // nothing connected
    }
  }

  /** A server that accepts connections into {@code held} and never answers a byte. */
  private static ServerSocket silent(List<Socket> held) throws IOException {
    ServerSocket silent = listen(0);
    Thread acceptor = new Thread(() -> holdConnections(silent, held));
    acceptor.setDaemon(true);
    acceptor.start();
    return silent;
  }

  /** Accepts connections and keeps them open without a byte of answer, until the socket closes. */
  private static void holdConnections(ServerSocket server, List<Socket> held) {
    try {
      while (true) {
        held.add(server.accept());
      }
    } catch (IOException closed) {
      // the test is over
    }
  }
}
