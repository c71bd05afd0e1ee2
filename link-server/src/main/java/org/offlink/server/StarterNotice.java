package org.offlink.server;

import java.io.IOException;
import org.offlink.server.protocol.FrameType;
import org.offlink.server.protocol.FrameWriter;

/**
 * Tells the client that started this server, once, that a server of this identity listens on the
 * socket ({@link FrameType#LISTENING}): that client holds the start lock until then (or until it
 * exits), so that the clients that found no server either wait for this one or, once it is there,
 * connect to it, rather than starting servers of their own. Whichever comes second, the starter's
 * connection or the listening socket, sends it; the starter's link sends its exit status only once
 * the listener is settled, listening or not, so that the starter never exits (and lets the others
 * in) before the socket is there.
 */
final class StarterNotice {
  private FrameWriter starter;
  private boolean listening;
  private boolean settled;
  private boolean sent;

  /** The starting client's connection is ready for frames. */
  synchronized void connected(FrameWriter writer) {
    starter = writer;
    sendOnceBoth();
  }

  /** A server of this identity (this one, or one that owned the name first) listens. */
  synchronized void listening() {
    listening = true;
    settled();
    sendOnceBoth();
  }

  /** This server will not listen (it could not start its socket, or it has retired). */
  synchronized void settled() {
    settled = true;
    notifyAll();
  }

  /** Waits until the server listens or will not. */
  synchronized void awaitSettled() {
    boolean interrupted = false;
    while (!settled) {
      try {
        wait();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private void sendOnceBoth() {
    if (starter == null || !listening || sent) {
      return;
    }
    sent = true;
    try {
      starter.write(FrameType.LISTENING, new byte[0]);
    } catch (IOException e) {
      // the client has gone: its exit lets the others in
    }
  }
}
