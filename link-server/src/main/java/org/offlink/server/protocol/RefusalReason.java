package org.offlink.server.protocol;

/** Why a server answered a request with {@link FrameType#REFUSED}; nothing ran. */
public enum RefusalReason {
  /** Another build, JDK or JVM option set, or the server's files have changed since it started. */
  IDENTITY(1),
  /** The request broke the protocol. */
  BAD_REQUEST(2),
  /** The peer is another user. */
  PEER(3);

  private final int code;

  RefusalReason(int code) {
    this.code = code;
  }

  /** The code on the wire. */
  public int code() {
    return code;
  }
}
