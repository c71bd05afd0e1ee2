package org.offlink.server.protocol;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;

/**
 * Writes {@link Frame}s; safe for several threads (each frame is written whole, under a lock), so
 * that stdout and stderr of one link keep their order on the wire.
 */
public final class FrameWriter {
  private final OutputStream out;

  /** A writer to {@code out}, which gets one write call per frame. */
  public FrameWriter(OutputStream out) {
    this.out = Objects.requireNonNull(out, "out");
  }

  /** Writes one frame of {@code len} payload bytes from {@code payload[off]}. */
  public synchronized void write(FrameType type, byte[] payload, int off, int len)
      throws IOException {
    Objects.checkFromIndexSize(off, len, payload.length);
    if (len >= Protocol.MAX_REQUEST) {
      throw new IllegalArgumentException("a frame of " + len + " bytes");
    }
    byte[] frame = new byte[5 + len];
    int length = len + 1;
    frame[0] = (byte) (length >>> 24);
    frame[1] = (byte) (length >>> 16);
    frame[2] = (byte) (length >>> 8);
    frame[3] = (byte) length;
    frame[4] = (byte) type.code();
    System.arraycopy(payload, off, frame, 5, len);
    out.write(frame);
    out.flush();
  }

  /** Writes one frame with all of {@code payload}. */
  public void write(FrameType type, byte[] payload) throws IOException {
    write(type, payload, 0, payload.length);
  }

  /** Writes stream data as frames of at most {@link Protocol#DATA_CHUNK} bytes (none if empty). */
  public void data(FrameType type, byte[] bytes, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, bytes.length);
    for (int at = off, end = off + len; at < end; at += Protocol.DATA_CHUNK) {
      write(type, bytes, at, Math.min(Protocol.DATA_CHUNK, end - at));
    }
  }

  /** A frame whose payload is one big-endian u32. */
  public void u32(FrameType type, long value) throws IOException {
    write(
        type,
        new byte[] {
          (byte) (value >>> 24), (byte) (value >>> 16), (byte) (value >>> 8), (byte) value
        });
  }
}
