package org.offlink.server;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.offlink.server.protocol.Frame;
import org.offlink.server.protocol.FrameReader;
import org.offlink.server.protocol.FrameType;
import org.offlink.server.protocol.FrameWriter;
import org.offlink.server.protocol.Protocol;
import org.offlink.server.protocol.ProtocolException;

/**
 * Asks the servers in a server folder how they are ({@link FrameType#STATUS}) or to stop ({@link
 * FrameType#STOP}), for {@code offlink server} and {@code offlink doctor}. Answers are the server's
 * {@code key=value} lines.
 */
public final class ServerQuery {
  private ServerQuery() {}

  /** The sockets in {@code folder}, sorted; none when it does not exist. */
  public static List<Path> sockets(Path folder) throws IOException {
    if (!Files.isDirectory(folder)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(folder)) {
      return files.filter(f -> f.getFileName().toString().endsWith(".sock")).sorted().toList();
    }
  }

  /** The status of the server on {@code socket}; empty when nothing answers there (stale). */
  public static Optional<Map<String, String>> status(Path socket) throws IOException {
    return ask(socket, FrameType.STATUS);
  }

  /** Asks the server on {@code socket} to stop; its status, empty when nothing answers. */
  public static Optional<Map<String, String>> stop(Path socket) throws IOException {
    return ask(socket, FrameType.STOP);
  }

  private static Optional<Map<String, String>> ask(Path socket, FrameType question)
      throws IOException {
    try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      try {
        ch.connect(SocketAddresses.of(socket, false));
      } catch (IOException nobody) {
        return Optional.empty();
      }
      new FrameWriter(ChannelStreams.output(ch))
          .write(question, new byte[] {(byte) (Protocol.VERSION >>> 8), (byte) Protocol.VERSION});
      Frame answer =
          new FrameReader(ChannelStreams.input(ch))
              .next(Protocol.MAX_FRAME)
              .orElseThrow(
                  () -> new ProtocolException(socket + ": the server closed without answering"));
      String text = new String(answer.payload(), StandardCharsets.UTF_8);
      if (answer.type() == FrameType.REFUSED) {
        throw new IOException(
            socket + ": the server refused: " + text.substring(Math.min(1, text.length())));
      }
      if (answer.type() != FrameType.STATUS_TEXT) {
        throw new ProtocolException(
            socket + ": a " + answer.type() + " frame, expected STATUS_TEXT");
      }
      return Optional.of(parse(text));
    }
  }

  static Map<String, String> parse(String text) {
    Map<String, String> values = new LinkedHashMap<>();
    for (String line : text.split("\n")) {
      int eq = line.indexOf('=');
      if (eq > 0) {
        values.put(line.substring(0, eq), line.substring(eq + 1));
      }
    }
    return values;
  }
}
