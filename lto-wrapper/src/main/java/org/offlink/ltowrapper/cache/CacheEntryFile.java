package org.offlink.ltowrapper.cache;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.CRC32;
import org.offlink.bridge.image.ImageCounts;

/**
 * The on-disk form of one local cache entry, one file: the magic {@code OFLKIMG2}, the image's
 * function and variable counts and the object's length (big-endian 64-bit each), the wrapper
 * object's bytes, and a CRC-32 of everything before it (zlib's, native from the first byte: {@code
 * CRC32C} is Java code, which a short-lived JVM runs in its interpreter, and building its tables
 * alone cost a link ~4 ms). A file that is short, long, of another format or whose checksum does
 * not match is not an entry ({@link #decode} says why); a local cache guards against torn and
 * damaged files, not against an adversary (remote blobs are checked against their SHA-256).
 */
public final class CacheEntryFile {
  private static final byte[] MAGIC = "OFLKIMG2".getBytes(StandardCharsets.US_ASCII);
  private static final int HEADER = MAGIC.length + 3 * Long.BYTES;
  private static final int TRAILER = Integer.BYTES;

  private CacheEntryFile() {}

  /** Writes the file for {@code image} to {@code out} without first joining it in memory. */
  public static void writeTo(OutputStream out, CachedImage image) throws IOException {
    byte[] object = image.object();
    ByteBuffer header = ByteBuffer.allocate(HEADER);
    header.put(MAGIC);
    header.putLong(image.counts().functions());
    header.putLong(image.counts().variables());
    header.putLong(object.length);
    CRC32 crc = new CRC32();
    crc.update(header.array());
    crc.update(object);
    out.write(header.array());
    out.write(object);
    out.write(ByteBuffer.allocate(TRAILER).putInt((int) crc.getValue()).array());
  }

  /**
   * The entry in {@code bytes}.
   *
   * @throws IllegalArgumentException naming what is wrong (a damaged or foreign file)
   */
  public static CachedImage decode(byte[] bytes) {
    if (bytes.length < HEADER + TRAILER
        || !Arrays.equals(bytes, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
      throw new IllegalArgumentException(
          "expected an offlink cache entry (OFLKIMG2), found " + bytes.length + " other bytes");
    }
    ByteBuffer b = ByteBuffer.wrap(bytes);
    b.position(MAGIC.length);
    long functions = b.getLong();
    long variables = b.getLong();
    long length = b.getLong();
    if (length != bytes.length - HEADER - TRAILER) {
      throw new IllegalArgumentException(
          "expected a "
              + length
              + "-byte object, found "
              + (bytes.length - HEADER - TRAILER)
              + " bytes (a torn write?)");
    }
    CRC32 crc = new CRC32();
    crc.update(bytes, 0, bytes.length - TRAILER);
    int stored = ByteBuffer.wrap(bytes, bytes.length - TRAILER, TRAILER).getInt();
    if (stored != (int) crc.getValue()) {
      throw new IllegalArgumentException("checksum mismatch (a damaged entry)");
    }
    if (functions < 0 || variables < 0) {
      throw new IllegalArgumentException("negative counts " + functions + "/" + variables);
    }
    byte[] object = Arrays.copyOfRange(bytes, HEADER, bytes.length - TRAILER);
    return new CachedImage(object, new ImageCounts(functions, variables));
  }
}
