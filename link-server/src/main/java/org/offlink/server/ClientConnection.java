package org.offlink.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.offlink.runtime.NativeCharset;
import org.offlink.server.protocol.Frame;
import org.offlink.server.protocol.FrameReader;
import org.offlink.server.protocol.FrameType;
import org.offlink.server.protocol.FrameWriter;
import org.offlink.server.protocol.LinkRequest;
import org.offlink.server.protocol.Protocol;
import org.offlink.server.protocol.ProtocolException;
import org.offlink.server.protocol.RefusalReason;
import org.offlink.server.protocol.RequestDecoder;

/**
 * One connection: checks the peer's user ({@code SO_PEERCRED}), reads its first frame (within
 * {@link #FIRST_FRAME_SECONDS}) and serves it: a link, a status query or a stop. The connection of
 * the client that started the server is told {@link FrameType#READY} first, and {@link
 * FrameType#LISTENING} once the server's socket is in place ({@link StarterNotice}).
 *
 * @param connection the connection, closed when it has been served
 * @param server the server it was accepted by
 * @param log where refusals and dropped clients are noted
 */
record ClientConnection(Connection connection, LinkServer server, ServerLog log) {
  /** How long a client may take to send its first frame before it is dropped. */
  static final int FIRST_FRAME_SECONDS = 10;

  void serve() {
    try (connection) {
      FrameWriter writer = new FrameWriter(connection.output());
      if (connection.starter()) {
        writer.u32(FrameType.READY, ProcessHandle.current().pid());
        server.starterConnected(writer);
      }
      Optional<String> stranger = connection.stranger(server.owner());
      if (stranger.isPresent()) {
        log.line("refused a connection from " + stranger.get());
        refuse(writer, RefusalReason.PEER, "this server serves another user");
        return;
      }
      FrameReader reader = new FrameReader(connection.input());
      // The starter sends its request as it reads READY (and closing descriptor 0 would not wake
      // this read): only an accepted connection can be dropped.
      Optional<ScheduledFuture<?>> drop =
          connection.starter()
              ? Optional.empty()
              : Optional.of(
                  server.timer().schedule(this::drop, FIRST_FRAME_SECONDS, TimeUnit.SECONDS));
      Optional<Frame> first;
      try {
        first = reader.next(Protocol.MAX_REQUEST);
      } finally {
        drop.ifPresent(d -> d.cancel(false));
      }
      if (first.isPresent()) {
        dispatch(first.get(), reader, writer);
      }
    } catch (ProtocolException e) {
      log.line("dropped a client: " + e.getMessage());
    } catch (IOException e) {
      // the client went away: nothing ran for it
    }
  }

  private void dispatch(Frame first, FrameReader reader, FrameWriter writer) throws IOException {
    switch (first.type()) {
      case REQUEST -> link(first, reader, writer);
      case STATUS -> {
        checkVersion(first);
        writer.write(FrameType.STATUS_TEXT, server.status().getBytes(StandardCharsets.UTF_8));
      }
      case STOP -> {
        checkVersion(first);
        server.requestStop();
        writer.write(FrameType.STATUS_TEXT, server.status().getBytes(StandardCharsets.UTF_8));
      }
      default -> throw new ProtocolException("a " + first.type() + " frame to begin with");
    }
  }

  private static void checkVersion(Frame frame) throws ProtocolException {
    byte[] p = frame.payload();
    int version = p.length == 2 ? (p[0] & 0xff) << 8 | (p[1] & 0xff) : -1;
    if (version != Protocol.VERSION) {
      throw new ProtocolException(
          "a "
              + frame.type()
              + " frame for protocol version "
              + version
              + ", expected "
              + Protocol.VERSION);
    }
  }

  private void link(Frame first, FrameReader reader, FrameWriter writer) throws IOException {
    LinkRequest request;
    try {
      request = RequestDecoder.decode(first.payload(), NativeCharset.CHARSET);
    } catch (ProtocolException e) {
      log.line("refused a request: " + e.getMessage());
      refuse(writer, RefusalReason.BAD_REQUEST, e.getMessage());
      return;
    }
    if (!request.identity().equals(server.identity().text())) {
      log.line("refused client " + request.clientPid() + ": another identity");
      refuse(writer, RefusalReason.IDENTITY, "this server runs another build, JVM or JVM options");
      return;
    }
    server.serveLink(
        new LinkSession(
            request,
            connection,
            reader,
            writer,
            log,
            connection.starter() ? server::awaitStarterSettled : () -> {}));
  }

  private static void refuse(FrameWriter writer, RefusalReason reason, String text)
      throws IOException {
    byte[] t = text.getBytes(StandardCharsets.UTF_8);
    byte[] payload = new byte[1 + t.length];
    payload[0] = (byte) reason.code();
    System.arraycopy(t, 0, payload, 1, t.length);
    writer.write(FrameType.REFUSED, payload);
  }

  private void drop() {
    connection.close();
  }
}
