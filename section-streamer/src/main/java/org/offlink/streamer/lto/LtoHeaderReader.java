package org.offlink.streamer.lto;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import org.offlink.streamer.MalformedObjectException;

/** Decodes {@link LtoHeader} from the bytes of a {@code .lto.} section. */
public final class LtoHeaderReader {
  private LtoHeaderReader() {}

  /**
   * Decodes {@code section}, which was read at {@code offset} in {@code file} (for messages).
   * Longer sections are accepted; only the first 8 bytes are defined.
   */
  public static LtoHeader read(Path file, long offset, byte[] section)
      throws MalformedObjectException {
    if (section.length < LtoHeader.SIZE) {
      throw new MalformedObjectException(
          file,
          offset,
          "expected an 8-byte LTO header section, found " + section.length + " bytes");
    }
    ByteBuffer b = ByteBuffer.wrap(section).order(ByteOrder.LITTLE_ENDIAN);
    int flags = Short.toUnsignedInt(b.getShort(6));
    return new LtoHeader(
        b.getShort(0), b.getShort(2), section[4] != 0, LtoCompression.ofFlags(flags), flags);
  }
}
