package org.offlink.ltowrapper.cache;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A scripted HTTP/1.1 server on 127.0.0.1 for remote-cache tests that need what no real server does
 * (lie in a header, trickle, never end): each connection is handed to a {@link Script} on a daemon
 * thread, with helpers to read a request's head. Also used by the integration tests' misbehaving
 * cache server.
 */
public final class RawHttp implements AutoCloseable {
  /** What one connection gets. */
  @FunctionalInterface
  public interface Script {
    /** Serves the connection; any exception ends it (the client hung up, or the test is over). */
    void serve(Socket connection) throws IOException, InterruptedException;
  }

  private final ServerSocket server;

  /** Starts a server that runs {@code script} on every connection, one thread each. */
  public RawHttp(Script script) throws IOException {
    server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread acceptor =
        new Thread(
            () -> {
              while (!server.isClosed()) {
                try {
                  Socket s = server.accept();
                  Thread t = new Thread(() -> run(script, s), "raw-http-connection");
                  t.setDaemon(true);
                  t.start();
                } catch (IOException closed) {
                  return;
                }
              }
            },
            "raw-http");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  private static void run(Script script, Socket s) {
    try (s) {
      script.serve(s);
    } catch (IOException | InterruptedException | RuntimeException gone) {
      // the client hung up, or the test is over
    }
  }

  /** The port it listens on. */
  public int port() {
    return server.getLocalPort();
  }

  /** A request's head, up to and including the empty line; null when the connection ends first. */
  public static String readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    while (matched < 4) {
      int b = in.read();
      if (b < 0) {
        return null;
      }
      head.write(b);
      matched = b == "\r\n\r\n".charAt(matched) ? matched + 1 : (b == '\r' ? 1 : 0);
    }
    return head.toString(StandardCharsets.ISO_8859_1);
  }

  /** The value of header {@code name} in {@code head}, or null. */
  public static String header(String head, String name) {
    for (String line : head.split("\r\n")) {
      if (line.regionMatches(true, 0, name + ":", 0, name.length() + 1)) {
        return line.substring(name.length() + 1).trim();
      }
    }
    return null;
  }

  /** A chunked 200 answer whose 64 KiB chunks never end, until the client hangs up. */
  public static void endlessChunks(OutputStream out) throws IOException {
    out.write(ascii("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"));
    byte[] chunk = ascii("10000\r\n" + "x".repeat(0x10000) + "\r\n");
    while (true) {
      out.write(chunk);
    }
  }

  /** {@code s} as ISO-8859-1 bytes. */
  public static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }

  @Override
  public void close() throws IOException {
    server.close();
  }
}
