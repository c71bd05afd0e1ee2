package org.offlink.streamer.lto;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.offlink.streamer.MalformedObjectException;

/**
 * Decompresses the content of a compressed LTO section (see {@link LtoSectionKind#isCompressed()}):
 * the whole section is one zstd frame or one zlib stream (RFC 1950, with its 2-byte header), as
 * named by the object's {@link LtoHeader}.
 *
 * <p>Output is bounded: a section that expands past {@value #MAX_DECOMPRESSED} bytes (128 MiB, some
 * hundred times the largest offload IR section GCC writes for real programs) is rejected with a
 * message naming the limit, so a small hostile section (a zstd frame of zeros claiming gigabytes)
 * costs a bounded amount of memory and time. GCC itself has no limit; it would try to allocate it.
 */
public final class LtoPayload {
  /** The most bytes one section may expand to. */
  public static final int MAX_DECOMPRESSED = 128 << 20;

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
      ByteArrayOutputStream out = new ByteArrayOutputStream(initialSize(data));
      byte[] buf = new byte[65536];
      for (int n; (n = in.read(buf)) > 0; ) {
        checkLimit(file, offset, data, out.size(), n);
        out.write(buf, 0, n);
      }
      return out.toByteArray();
    } catch (MalformedObjectException e) {
      throw e;
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
      ByteArrayOutputStream out = new ByteArrayOutputStream(initialSize(data));
      byte[] buf = new byte[8192];
      while (!inflater.finished()) {
        int n = inflater.inflate(buf);
        if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
          throw new DataFormatException("truncated stream");
        }
        checkLimit(file, offset, data, out.size(), n);
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

  private static int initialSize(byte[] data) {
    return (int) Math.min(MAX_DECOMPRESSED, Math.max(8192L, data.length * 4L));
  }

  private static void checkLimit(Path file, long offset, byte[] data, int done, int more)
      throws MalformedObjectException {
    if ((long) done + more > MAX_DECOMPRESSED) {
      throw new MalformedObjectException(
          file,
          offset,
          String.format(
              "expected a compressed LTO section of at most %d bytes decompressed (offlink's"
                  + " limit), found one of %d bytes that expands further",
              MAX_DECOMPRESSED, data.length));
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
