package org.offlink.streamer.lto;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Encodes {@link LtoHeader} as the 8 bytes of a {@code .lto.} section. */
public final class LtoHeaderWriter {
  private LtoHeaderWriter() {}

  /** The section bytes (padding byte 0). */
  public static byte[] write(LtoHeader header) {
    return ByteBuffer.allocate(LtoHeader.SIZE)
        .order(ByteOrder.LITTLE_ENDIAN)
        .putShort((short) header.major())
        .putShort((short) header.minor())
        .put((byte) (header.slim() ? 1 : 0))
        .put((byte) 0)
        .putShort((short) header.flags())
        .array();
  }
}
