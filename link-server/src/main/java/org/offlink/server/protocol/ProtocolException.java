package org.offlink.server.protocol;

import java.io.IOException;

/** Bytes from a peer that break the protocol: what was expected, what was found, and where. */
public final class ProtocolException extends IOException {
  /** A violation at {@code offset} of a frame's payload (-1: not inside a payload). */
  public ProtocolException(String message, long offset) {
    super(offset < 0 ? message : message + " (at byte " + offset + ")");
  }

  /** A violation outside any payload. */
  public ProtocolException(String message) {
    this(message, -1);
  }
}
