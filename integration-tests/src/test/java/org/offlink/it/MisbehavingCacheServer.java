package org.offlink.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A Bazel HTTP cache on 127.0.0.1 that misbehaves on purpose, for {@link RemoteCacheMisbehavingIT}:
 * the first path segment of a request picks the behaviour ({@code /<mode>/ac/<key>}), and a
 * behaviour writes a whole raw HTTP answer (so it can lie in its headers, trickle, or never end).
 * PUTs are read and answered 201 (nothing is kept). Records every request line.
 */
final class MisbehavingCacheServer implements AutoCloseable {
  /** What one request gets: writes the answer to {@code out}, given the request line. */
  @FunctionalInterface
  interface Behaviour {
    void answer(String requestLine, OutputStream out) throws IOException, InterruptedException;
  }

  private final ServerSocket server;
  private final Map<String, Behaviour> modes = new ConcurrentHashMap<>();
  private final List<String> requests = new CopyOnWriteArrayList<>();
  private final List<Socket> open = new CopyOnWriteArrayList<>();

  MisbehavingCacheServer() throws IOException {
    server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread acceptor = new Thread(this::accept, "misbehaving-cache-server");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** The base URL of {@code mode}. */
  String base(String mode) {
    return "http://127.0.0.1:" + server.getLocalPort() + "/" + mode;
  }

  int port() {
    return server.getLocalPort();
  }

  /** Serves {@code mode} with {@code behaviour}. */
  void mode(String mode, Behaviour behaviour) {
    modes.put(mode, behaviour);
  }

  /** The request lines received so far ({@code GET /mode/ac/... HTTP/1.1}). */
  List<String> requests() {
    return List.copyOf(requests);
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket s = server.accept();
        open.add(s);
        Thread t = new Thread(() -> serve(s), "misbehaving-cache-connection");
        t.setDaemon(true);
        t.start();
      } catch (IOException closed) {
        return;
      }
    }
  }

  private void serve(Socket s) {
    try (s) {
      InputStream in = s.getInputStream();
      OutputStream out = s.getOutputStream();
      while (true) { // keep-alive: one request after another on the connection
        String head = readHead(in);
        if (head == null) {
          return;
        }
        String line = head.substring(0, head.indexOf("\r\n"));
        requests.add(line);
        if (line.startsWith("PUT ")) {
          in.readNBytes(Integer.parseInt(header(head, "Content-Length")));
          out.write(ascii("HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n"));
          out.flush();
          continue;
        }
        String mode = line.split(" ")[1].split("/")[1];
        Behaviour b = modes.getOrDefault(mode, (l, o) -> plain(o, 404, new byte[0]));
        b.answer(line, out);
        out.flush();
      }
    } catch (IOException | InterruptedException | RuntimeException gone) {
      // the client hung up (as it should on most of these answers), or the test is over
    }
  }

  /** A complete answer with a body. */
  static void plain(OutputStream out, int status, byte[] body) throws IOException {
    out.write(ascii("HTTP/1.1 " + status + " X\r\nContent-Length: " + body.length + "\r\n\r\n"));
    out.write(body);
  }

  /** A behaviour serving {@code files} by the request path after the mode, 404 for the rest. */
  static Behaviour files(Function<String, byte[]> files) {
    return (line, out) -> {
      String path = line.split(" ")[1];
      String rest = path.substring(path.indexOf('/', 1) + 1);
      byte[] body = files.apply(rest);
      plain(out, body == null ? 404 : 200, body == null ? new byte[0] : body);
    };
  }

  static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }

  private static String readHead(InputStream in) throws IOException {
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

  private static String header(String head, String name) {
    for (String line : head.split("\r\n")) {
      if (line.regionMatches(true, 0, name + ":", 0, name.length() + 1)) {
        return line.substring(name.length() + 1).trim();
      }
    }
    return "0";
  }

  @Override
  public void close() throws IOException {
    server.close();
    for (Socket s : open) {
      s.close();
    }
  }
}
