package org.offlink.server;

import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Path;
import org.offlink.runtime.NativeCharset;

/**
 * Socket addresses for paths: {@code sun_path} holds 107 bytes, so a longer path is given relative
 * to the working folder when the socket lies in it (a server runs in its folder, as the client
 * starts it there).
 */
final class SocketAddresses {
  private static final int SUN_PATH = 107;

  private SocketAddresses() {}

  static UnixDomainSocketAddress of(Path socket) throws IOException {
    if (socket.toString().getBytes(NativeCharset.CHARSET).length <= SUN_PATH) {
      return UnixDomainSocketAddress.of(socket);
    }
    Path cwd = Path.of("").toAbsolutePath();
    if (socket.getParent() != null && socket.getParent().equals(cwd)) {
      return UnixDomainSocketAddress.of(socket.getFileName());
    }
    throw new IOException(socket + ": too long for a socket name");
  }
}
