package org.offlink.server;

import org.offlink.server.protocol.LinkRequest;

/** Runs one client's link inside the server, concurrently with other links. */
public interface LinkExecutor {
  /**
   * Runs {@code request}'s tool with the request's environment, working folder and umask and the
   * client's streams, and returns its exit status (0-255); never throws. {@code control} says when
   * the link is cancelled and takes what the client must know to clean up should the server die.
   */
  int run(LinkRequest request, LinkStreams streams, LinkControl control);
}
