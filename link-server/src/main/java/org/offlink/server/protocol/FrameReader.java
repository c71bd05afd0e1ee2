package org.offlink.server.protocol;

import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads {@link Frame}s from a peer, trusting nothing: a length outside {@code 1..limit}, an unknown
 * type and a stream that ends inside a frame are {@link ProtocolException}s. The payload buffer
 * grows as bytes arrive, so a length alone cannot make the reader allocate the limit.
 */
public final class FrameReader {
  private final InputStream in;

  /** A reader of {@code in} (a blocking stream). */
  public FrameReader(InputStream in) {
    this.in = Objects.requireNonNull(in, "in");
  }

  /**
   * The next frame, or empty when the stream ends between frames.
   *
   * @param limit the largest length (type + payload) accepted
   */
  public Optional<Frame> next(int limit) throws IOException {
    byte[] head = in.readNBytes(5);
    if (head.length == 0) {
      return Optional.empty();
    }
    if (head.length < 5) {
      throw new ProtocolException(
          "the stream ended inside a frame header (" + head.length + " of 5 bytes)");
    }
    long length =
        (head[0] & 0xffL) << 24 | (head[1] & 0xff) << 16 | (head[2] & 0xff) << 8 | (head[3] & 0xff);
    if (length < 1 || length > limit) {
      throw new ProtocolException(
          "a frame of " + length + " bytes, expected 1 to " + limit + " bytes");
    }
    int code = head[4] & 0xff;
    FrameType type =
        FrameType.of(code).orElseThrow(() -> new ProtocolException("unknown frame type " + code));
    byte[] payload = in.readNBytes((int) length - 1);
    if (payload.length < length - 1) {
      throw new ProtocolException(
          "the stream ended inside a "
              + type
              + " frame ("
              + payload.length
              + " of "
              + (length - 1)
              + " payload bytes)");
    }
    return Optional.of(new Frame(type, payload));
  }
}
