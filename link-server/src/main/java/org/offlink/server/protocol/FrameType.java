package org.offlink.server.protocol;

import java.util.Optional;
import org.offlink.runtime.EnumLookup;

/** The kinds of frame ({@link Protocol}), each with its one-letter code and direction. */
public enum FrameType {
  /** Client: a link ({@link LinkRequest}); the first and only request of a connection. */
  REQUEST('Q', true),
  /** Client: u16 protocol version; the server answers {@link #STATUS_TEXT} and closes. */
  STATUS('S', true),
  /** Client: u16 protocol version; the server stops accepting and ends once its links have. */
  STOP('X', true),
  /** Client: stdin bytes, after {@link #WANT_STDIN}; an empty frame is end of file. */
  STDIN('I', true),
  /** Client: u8 signal number; the link is ended as that signal would end a JVM run for it. */
  CANCEL('K', true),
  /** Server: u32 server pid; the link runs. */
  ACCEPTED('A', false),
  /** Server: u8 {@link RefusalReason} code and UTF-8 text; nothing ran. */
  REFUSED('R', false),
  /** Server: stdout bytes. */
  OUT('O', false),
  /** Server: stderr bytes. */
  ERR('E', false),
  /** Server: the link reads stdin; the client relays it from now on. */
  WANT_STDIN('W', false),
  /** Server: u32 process group of the link's children, to end if the server vanishes. */
  CHILD_GROUP('P', false),
  /** Server: u32 a group of {@link #CHILD_GROUP} whose leader has been waited for. */
  CHILD_DONE('D', false),
  /** Server: path bytes of a file of the link, to remove if the server vanishes. */
  TEMP_FILE('F', false),
  /** Server: path bytes of a {@link #TEMP_FILE} that is no longer the client's to remove. */
  TEMP_DONE('G', false),
  /** Server: u8 exit status of the link; the last frame. */
  EXIT('Z', false),
  /** Server: UTF-8 {@code key=value} lines answering {@link #STATUS} or {@link #STOP}. */
  STATUS_TEXT('T', false);

  private final char code;
  private final boolean fromClient;

  FrameType(char code, boolean fromClient) {
    this.code = code;
    this.fromClient = fromClient;
  }

  /** The type byte on the wire. */
  public char code() {
    return code;
  }

  /** Whether the client sends it (else the server does). */
  public boolean fromClient() {
    return fromClient;
  }

  /** The type with this code, if any. */
  public static Optional<FrameType> of(int code) {
    return EnumLookup.byCode(values(), FrameType::code, code);
  }
}
