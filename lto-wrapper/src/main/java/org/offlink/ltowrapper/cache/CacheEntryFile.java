package org.offlink.ltowrapper.cache;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.CRC32;
import org.offlink.bridge.image.ImageCounts;
import org.offlink.bridge.tool.OffloadTarget;
import org.offlink.bridge.wrapper.WrapperObjectVerifier;

/**
 * The on-disk form of one local cache entry, one file:
 *
 * <pre>
 * offset  size  field
 *  0       8    magic "OFLKIMG2"
 *  8       8    the image's function count    (big-endian, signed 64-bit, at least 0)
 * 16       8    the image's variable count    (idem)
 * 24       8    the wrapper object's length n (idem)
 * 32       n    the wrapper object
 * 32+n     4    CRC-32 of bytes [0, 32+n)     (big-endian)
 * </pre>
 *
 * The CRC is zlib's, native from the first byte ({@code CRC32C} is Java code, which a short-lived
 * JVM runs in its interpreter, and building its tables alone cost a link ~4 ms).
 *
 * <p>Reading an entry trusts nothing in it: a file that is short, long, of another format or whose
 * checksum does not match is torn or damaged; one whose object is not exactly a wrapper object
 * offlink's writer makes for the key's target ({@link WrapperObjectVerifier}: no constructor, code
 * or symbol of anyone else's), or registers other counts than the header says, is foreign. Either
 * is a {@link CacheEntryException}. The object's length is checked against the file before any
 * memory is taken for it.
 */
public final class CacheEntryFile {
  private static final byte[] MAGIC = "OFLKIMG2".getBytes(StandardCharsets.US_ASCII);

  /**
   * The largest entry the cache reads or writes, 256 MiB: a hit holds the object twice while it is
   * checked (about 512 MiB of heap), and images this large are rare (a saxpy nvptx image is 0.5
   * MiB). A larger file at an entry's path is a miss and is removed unread; a larger image is built
   * every time and not stored.
   */
  public static final long MAX_SIZE = 256L << 20;

  /** The bytes before the object. */
  static final int HEADER = MAGIC.length + 3 * Long.BYTES;

  /** The bytes after the object. */
  static final int TRAILER = Integer.BYTES;

  private CacheEntryFile() {}

  /** The size of the file for {@code image}. */
  static long size(CachedImage image) {
    return HEADER + (long) image.object().length + TRAILER;
  }

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
   * The entry in {@code bytes}, for an image of {@code target}.
   *
   * @throws CacheEntryException naming what is wrong (a damaged or foreign file)
   */
  public static CachedImage decode(byte[] bytes, OffloadTarget target) throws CacheEntryException {
    return decode(bytes, EntryCheck.wrapperObject(target));
  }

  /**
   * The entry in {@code bytes}, whose object {@code check} accepts.
   *
   * @throws CacheEntryException naming what is wrong (a damaged or foreign file)
   */
  public static CachedImage decode(byte[] bytes, EntryCheck check) throws CacheEntryException {
    try {
      return read(Channels.newChannel(new ByteArrayInputStream(bytes)), bytes.length, check);
    } catch (IOException e) {
      throw new CacheEntryException("cannot be read: " + e.getMessage()); // not from an array
    }
  }

  /**
   * The entry in the {@code size}-byte file {@code in} reads, for an image of {@code target}.
   *
   * @throws CacheEntryException naming what is wrong (a damaged or foreign file)
   * @throws IOException if reading fails
   */
  static CachedImage read(ReadableByteChannel in, long size, EntryCheck check)
      throws IOException, CacheEntryException {
    if (size > MAX_SIZE) {
      throw new CacheEntryException(
          size + " bytes, over the " + (MAX_SIZE >> 20) + " MiB limit of an entry");
    }
    ByteBuffer header = ByteBuffer.allocate(HEADER);
    if (size < HEADER + TRAILER
        || fill(in, header) < HEADER
        || !Arrays.equals(header.array(), 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
      throw new CacheEntryException(
          "expected an offlink cache entry (OFLKIMG2), found " + size + " other bytes");
    }
    header.position(MAGIC.length);
    long functions = header.getLong();
    long variables = header.getLong();
    long length = header.getLong();
    if (length != size - HEADER - TRAILER) {
      throw new CacheEntryException(
          "expected a "
              + length
              + "-byte object, found "
              + (size - HEADER - TRAILER)
              + " bytes (a torn write?)");
    }
    ByteBuffer object = ByteBuffer.allocate((int) length);
    ByteBuffer trailer = ByteBuffer.allocate(TRAILER);
    if (fill(in, object) < length || fill(in, trailer) < TRAILER) {
      throw new CacheEntryException("shorter than its " + size + " bytes (a torn write?)");
    }
    CRC32 crc = new CRC32();
    crc.update(header.array());
    crc.update(object.array());
    if (trailer.getInt(0) != (int) crc.getValue()) {
      throw new CacheEntryException("checksum mismatch (a damaged entry)");
    }
    return verified(object.array(), functions, variables, check);
  }

  /** The image, once its object is known to be a wrapper offlink makes with these counts. */
  private static CachedImage verified(
      byte[] object, long functions, long variables, EntryCheck check) throws CacheEntryException {
    if (functions < 0 || variables < 0) {
      throw new CacheEntryException("negative counts " + functions + "/" + variables);
    }
    return verified(object, new ImageCounts(functions, variables), check);
  }

  /**
   * The image of {@code object}, when {@code check} accepts it (for a device image: exactly a
   * wrapper object offlink's writer makes for the target, {@link WrapperObjectVerifier}) and it
   * registers {@code claimed}, the counts its entry (local or remote) names.
   *
   * @throws CacheEntryException naming what differs
   */
  static CachedImage verified(byte[] object, ImageCounts claimed, EntryCheck check)
      throws CacheEntryException {
    ImageCounts registered = check.counts(object);
    if (!registered.equals(claimed)) {
      throw new CacheEntryException(
          "expected the "
              + claimed.functions()
              + " functions and "
              + claimed.variables()
              + " variables the entry names, found an object registering "
              + registered.functions()
              + " and "
              + registered.variables());
    }
    return new CachedImage(object, registered);
  }

  /** Reads until {@code into} is full or the input ends; how many bytes it holds. */
  private static int fill(ReadableByteChannel in, ByteBuffer into) throws IOException {
    while (into.hasRemaining() && in.read(into) >= 0) {
      // keeps reading: a channel may return fewer bytes than asked
    }
    return into.position();
  }
}
