package org.offlink.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.offlink.ltowrapper.cache.RawHttp;

/**
 * A Bazel HTTP cache on 127.0.0.1 that misbehaves on purpose, for {@link RemoteCacheMisbehavingIT}:
 * the first path segment of a request picks the behaviour ({@code /<mode>/ac/<key>}), and a
 * behaviour writes a whole raw HTTP answer (so it can lie in its headers, trickle, or never end).
 * PUTs are read and answered 201 (nothing is kept). Records every request line. Built on the
 * remote-cache unit tests' {@link RawHttp}.
 */
final class MisbehavingCacheServer implements AutoCloseable {
  /** What one request gets: writes the answer to {@code out}, given the request line. */
  @FunctionalInterface
  interface Behaviour {
    void answer(String requestLine, OutputStream out) throws IOException, InterruptedException;
  }

  private final RawHttp server;
  private final Map<String, Behaviour> modes = new ConcurrentHashMap<>();
  private final List<String> requests = new CopyOnWriteArrayList<>();

  MisbehavingCacheServer() throws IOException {
    server = new RawHttp(this::serve);
  }

  /** The base URL of {@code mode}. */
  String base(String mode) {
    return "http://127.0.0.1:" + server.port() + "/" + mode;
  }

  /** Serves {@code mode} with {@code behaviour}. */
  void mode(String mode, Behaviour behaviour) {
    modes.put(mode, behaviour);
  }

  /** The request lines received so far ({@code GET /mode/ac/... HTTP/1.1}). */
  List<String> requests() {
    return List.copyOf(requests);
  }

  /** One connection: keep-alive, one request after another. */
  private void serve(Socket s) throws IOException, InterruptedException {
    InputStream in = s.getInputStream();
    OutputStream out = s.getOutputStream();
    for (String head; (head = RawHttp.readHead(in)) != null; ) {
      String line = head.substring(0, head.indexOf("\r\n"));
      requests.add(line);
      if (line.startsWith("PUT ")) {
        in.readNBytes(Integer.parseInt(RawHttp.header(head, "Content-Length")));
        out.write(ascii("HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n"));
        out.flush();
        continue;
      }
      String mode = line.split(" ")[1].split("/")[1];
      Behaviour b = modes.getOrDefault(mode, (l, o) -> plain(o, 404, new byte[0]));
      b.answer(line, out);
      out.flush();
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
    return RawHttp.ascii(s);
  }

  @Override
  public void close() throws IOException {
    server.close();
  }
}
