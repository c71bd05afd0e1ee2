package org.offlink.server.protocol;

import java.util.Optional;
import org.offlink.runtime.EnumLookup;

/**
 * The kinds of frame ({@link Protocol}), each with its one-letter code; each constant's comment
 * says which side sends it.
 */
public enum FrameType {
  /** Client: a link ({@link LinkRequest}); the first and only request of a connection. */
  REQUEST('Q'),
  /** Client: u16 protocol version; the server answers {@link #STATUS_TEXT} and closes. */
  STATUS('S'),
  /** Client: u16 protocol version; the server stops accepting and ends once its links have. */
  STOP('X'),
  /** Client: stdin bytes, after {@link #WANT_STDIN}; an empty frame is end of file. */
  STDIN('I'),
  /** Client: u8 signal number; the link is ended as that signal would end a JVM run for it. */
  CANCEL('K'),
  /** Server: u32 server pid; the link runs. */
  ACCEPTED('A'),
  /**
   * Server, to the client that started it only: u32 server pid; the server is up and reads the
   * client's first frame.
   */
  READY('Y'),
  /**
   * Server, to the client that started it only, at most once: a server of this identity listens on
   * the socket (no payload); the client lets in the clients that wait for the start.
   */
  LISTENING('L'),
  /** Server: u8 {@link RefusalReason} code and UTF-8 text; nothing ran. */
  REFUSED('R'),
  /** Server: stdout bytes. */
  OUT('O'),
  /** Server: stderr bytes. */
  ERR('E'),
  /** Server: the link reads stdin; the client relays it from now on. */
  WANT_STDIN('W'),
  /** Server: u32 process group of the link's children, to end if the server vanishes. */
  CHILD_GROUP('P'),
  /** Server: u32 a group of {@link #CHILD_GROUP} whose leader has been waited for. */
  CHILD_DONE('D'),
  /** Server: path bytes of a file of the link, to remove if the server vanishes. */
  TEMP_FILE('F'),
  /** Server: path bytes of a {@link #TEMP_FILE} that is no longer the client's to remove. */
  TEMP_DONE('G'),
  /** Server: u8 exit status of the link; the last frame. */
  EXIT('Z'),
  /** Server: UTF-8 {@code key=value} lines answering {@link #STATUS} or {@link #STOP}. */
  STATUS_TEXT('T');

  private final char code;

  FrameType(char code) {
    this.code = code;
  }

  /** The type byte on the wire. */
  public char code() {
    return code;
  }

  /** The type with this code, if any. */
  public static Optional<FrameType> of(int code) {
    return EnumLookup.byCode(values(), FrameType::code, code);
  }
}
