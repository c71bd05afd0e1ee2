package org.offlink.server.protocol;

/**
 * The link server's wire protocol: the constants both ends share with the C client's {@code
 * src/main/c/protocol.h} ({@code ProtocolConstantsTest} compares them).
 *
 * <p>A connection carries frames in both directions:
 *
 * <pre>
 * offset  size  field
 * 0       4     length L of type + payload, big-endian, 1 &lt;= L &lt;= the limit
 * 4       1     type ({@link FrameType})
 * 5       L-1   payload
 * </pre>
 *
 * <p>The client's first frame is a {@link FrameType#REQUEST} (a link, {@link LinkRequest}), a
 * {@link FrameType#STATUS} or a {@link FrameType#STOP}. A request is answered with {@link
 * FrameType#ACCEPTED} (the link runs here and nowhere else) or {@link FrameType#REFUSED} (nothing
 * ran: the client may run it itself), then output, and {@link FrameType#EXIT} at the end.
 *
 * <p>A client that starts a server hands it one end of a socket pair as the server's stdin; the
 * server answers on it with {@link FrameType#READY} first, then the client's request goes as on any
 * connection, and a {@link FrameType#LISTENING} comes once the server's socket is in place.
 */
public final class Protocol {
  /** The version a request carries; the identity (and so the socket's name) carries it too. */
  public static final int VERSION = 1;

  /** The first four bytes of a request. */
  public static final String REQUEST_MAGIC = "OFLK";

  /** The largest request frame: argv and environment together (execve allows far less). */
  public static final int MAX_REQUEST = 16 * 1024 * 1024;

  /** The largest frame of any other kind. */
  public static final int MAX_FRAME = 1024 * 1024;

  /** The largest piece of stream data a writer puts in one frame. */
  public static final int DATA_CHUNK = 64 * 1024;

  private Protocol() {}
}
