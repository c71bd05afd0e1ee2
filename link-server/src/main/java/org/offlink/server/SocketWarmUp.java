package org.offlink.server;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.nio.channels.ServerSocketChannel;
import jdk.net.ExtendedSocketOptions;

/**
 * Readies the JDK's Unix socket support on a thread of its own while a new server's main thread
 * checks its identity, folder and lock, so that the first link, whose client waits for the socket,
 * does not wait for it too.
 *
 * <p>A JVM's first Unix socket initializes the JDK's security providers (its socket code keeps a
 * {@code SecureRandom} for generated socket names): about 40 ms of a cold server's start on this
 * project's 2-core machine under load, against a link's own 100 ms. Reading a peer's credentials
 * first probes the platform's socket options, a few ms more. Both are class initialization, done
 * once per JVM; whichever thread gets there second waits for the first, so the result is the same
 * either way.
 */
final class SocketWarmUp {
  private SocketWarmUp() {}

  /** Starts the warm-up on a daemon thread and returns at once. */
  static void start() {
    Thread t = new Thread(SocketWarmUp::run, "offlink-server-warm-up");
    t.setDaemon(true);
    t.start();
  }

  private static void run() {
    try (ServerSocketChannel unused = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      ExtendedSocketOptions.SO_PEERCRED.name();
    } catch (IOException | UnsupportedOperationException e) {
      // The server's own bind reports what is wrong.
    }
  }
}
