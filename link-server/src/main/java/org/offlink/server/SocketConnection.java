package org.offlink.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.SocketChannel;
import java.nio.file.attribute.UserPrincipal;
import java.util.Optional;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;

/**
 * A connection the server accepted on its socket; its peer's user is read with {@code SO_PEERCRED}.
 *
 * @param channel the accepted channel, in blocking mode
 */
record SocketConnection(SocketChannel channel) implements Connection {
  @Override
  public InputStream input() {
    return ChannelStreams.input(channel);
  }

  @Override
  public OutputStream output() {
    return ChannelStreams.output(channel);
  }

  @Override
  public Optional<String> stranger(UserPrincipal owner) {
    try {
      UnixDomainPrincipal peer = channel.getOption(ExtendedSocketOptions.SO_PEERCRED);
      UserPrincipal user = peer.user();
      return user.equals(owner) ? Optional.empty() : Optional.of("user " + user.getName());
    } catch (IOException | UnsupportedOperationException e) {
      return Optional.of("a peer whose user is unknown (" + e.getMessage() + ")");
    }
  }

  @Override
  public boolean starter() {
    return false;
  }

  @Override
  public void close() {
    try {
      channel.close();
    } catch (IOException e) {
      // already closed
    }
  }
}
