package org.offlink.server;

import java.io.Closeable;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.attribute.UserPrincipal;
import java.util.Optional;

/**
 * A client's connection to the server: a socket the server accepted ({@link SocketConnection}), or
 * the one the client that started the server handed over as the server's stdin ({@link
 * StarterConnection}).
 */
interface Connection extends Closeable {
  /** What the client sends; one thread reads it while others write. */
  InputStream input();

  /** What the client is sent. */
  OutputStream output();

  /**
   * The peer's user when it is not {@code owner} (the server's own), as text; empty for the
   * server's own user.
   */
  Optional<String> stranger(UserPrincipal owner);

  /** Whether the client at the other end started this server and waits to be told it listens. */
  boolean starter();

  /** Closes the connection; quietly, as there is nothing more to say to the client. */
  @Override
  void close();
}
