package org.offlink.streamer.lto;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.offlink.streamer.MalformedObjectException;
import org.offlink.streamer.io.ZstdDecoding;

/**
 * Decompresses the content of a compressed LTO section (see {@link LtoSectionKind#isCompressed()}):
 * the whole section is one zstd frame or one zlib stream (RFC 1950, with its 2-byte header), as
 * named by the object's {@link LtoHeader}.
 */
public final class LtoPayload {
  private static final byte[] ZSTD_MAGIC = {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd};

  private LtoPayload() {}

  /**
   * Decompresses {@code data}, read at {@code offset} in {@code file} (for messages).
   *
   * @throws MalformedObjectException when the bytes are not a valid stream of {@code compression}
   */
  public static byte[] decompress(Path file, long offset, byte[] data, LtoCompression compression)
      throws MalformedObjectException {
    return switch (compression) {
      case ZSTD -> zstd(file, offset, data);
      case ZLIB -> zlib(file, offset, data);
      case UNKNOWN ->
          throw new MalformedObjectException(
              file,
              offset,
              "expected zlib or zstd compression in the LTO header, found another value");
    };
  }

  private static byte[] zstd(Path file, long offset, byte[] data) throws MalformedObjectException {
    if (!startsWith(data, ZSTD_MAGIC)) {
      throw new MalformedObjectException(
          file, offset, "expected a zstd frame (28 b5 2f fd), found " + hexHead(data));
    }
    try (InputStream in = ZstdDecoding.open(new ByteArrayInputStream(data))) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new MalformedObjectException(
          file, offset, "expected a zstd frame, found a corrupt one (" + e.getMessage() + ")", e);
    }
  }

  private static byte[] zlib(Path file, long offset, byte[] data) throws MalformedObjectException {
    boolean header =
        data.length >= 2
            && (data[0] & 0x0f) == 8
            && (((data[0] & 0xff) << 8) | (data[1] & 0xff)) % 31 == 0;
    if (!header) {
      throw new MalformedObjectException(
          file, offset, "expected a zlib stream (78 xx), found " + hexHead(data));
    }
    Inflater inflater = new Inflater();
    try {
      inflater.setInput(data);
      java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(data.length * 4);
      byte[] buf = new byte[8192];
      while (!inflater.finished()) {
        int n = inflater.inflate(buf);
        if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
          throw new DataFormatException("truncated stream");
        }
        out.write(buf, 0, n);
      }
      return out.toByteArray();
    } catch (DataFormatException e) {
      throw new MalformedObjectException(
          file, offset, "expected a zlib stream, found a corrupt one (" + e.getMessage() + ")", e);
    } finally {
      inflater.end();
    }
  }

  private static boolean startsWith(byte[] data, byte[] magic) {
    if (data.length < magic.length) {
      return false;
    }
    for (int i = 0; i < magic.length; i++) {
      if (data[i] != magic[i]) {
        return false;
      }
    }
    return true;
  }

  private static String hexHead(byte[] data) {
    if (data.length == 0) {
      return "an empty section";
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < Math.min(4, data.length); i++) {
      sb.append(i == 0 ? "" : " ").append(String.format("%02x", data[i] & 0xff));
    }
    return sb.toString();
  }
}
