package org.offlink.server;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import org.offlink.server.protocol.Frame;
import org.offlink.server.protocol.FrameReader;
import org.offlink.server.protocol.FrameType;
import org.offlink.server.protocol.FrameWriter;
import org.offlink.server.protocol.Protocol;

/**
 * Connects to a server's socket and asks for its status, printing the answer's type and first byte
 * ({@code R 3}: refused, another user); run as another user by {@link TwoUsersTest}.
 */
public final class PeerProbe {
  private PeerProbe() {}

  /** {@code PeerProbe SOCKET}. */
  public static void main(String[] args) throws IOException {
    try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      ch.connect(UnixDomainSocketAddress.of(Path.of(args[0])));
      try {
        new FrameWriter(ChannelStreams.output(ch))
            .write(FrameType.STATUS, new byte[] {0, (byte) Protocol.VERSION});
      } catch (IOException refusedAlready) {
        // a server refusing a stranger answers and closes without reading: its answer waits
      }
      Frame f = new FrameReader(ChannelStreams.input(ch)).next(Protocol.MAX_FRAME).orElseThrow();
      System.out.println(f.type().code() + " " + (f.payload().length > 0 ? f.payload()[0] : -1));
    }
  }
}
