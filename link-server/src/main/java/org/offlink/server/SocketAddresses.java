package org.offlink.server;

import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Path;
import org.offlink.runtime.NativeCharset;

/**
 * Socket addresses for paths: {@code sun_path} holds 107 bytes, so a longer path is given by its
 * name alone when the process runs in the socket's folder (a server does: the client starts it
 * there).
 */
final class SocketAddresses {
  private static final int SUN_PATH = 107;

  private SocketAddresses() {}

  /** The address of {@code socket}; {@code inFolder}: the process runs in its folder. */
  static UnixDomainSocketAddress of(Path socket, boolean inFolder) throws IOException {
    if (socket.toString().getBytes(NativeCharset.CHARSET).length <= SUN_PATH) {
      return UnixDomainSocketAddress.of(socket);
    }
    if (inFolder) {
      return UnixDomainSocketAddress.of(socket.getFileName());
    }
    throw new IOException(socket + ": too long for a socket name");
  }
}
