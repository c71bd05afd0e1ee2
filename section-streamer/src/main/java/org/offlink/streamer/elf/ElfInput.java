package org.offlink.streamer.elf;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.util.Arrays;
import org.offlink.streamer.MalformedObjectException;

/**
 * A window {@code [base, base + length)} of a file, read with positional reads so that objects
 * beyond 2 GiB, and objects inside archives, work; or an object already in memory (a cache entry, a
 * downloaded blob), read from its array. Every read is bounds-checked against the window and
 * reports problems as {@link MalformedObjectException} with the absolute file offset.
 */
final class ElfInput implements Closeable {
  /** Largest array the JVM reliably allocates. */
  static final int MAX_ARRAY = Integer.MAX_VALUE - 8;

  private final Path path;
  private final FileChannel channel;
  private final byte[] memory;
  private final long base;
  private final long length;

  ElfInput(Path path, FileChannel channel, long base, long length) {
    this.path = path;
    this.channel = channel;
    this.memory = null;
    this.base = base;
    this.length = length;
  }

  /** The object in {@code bytes} (not copied), named {@code path} in messages. */
  ElfInput(Path path, byte[] bytes) {
    this.path = path;
    this.channel = null;
    this.memory = bytes;
    this.base = 0;
    this.length = bytes.length;
  }

  Path path() {
    return path;
  }

  long base() {
    return base;
  }

  long length() {
    return length;
  }

  /** An exception for a problem at {@code relOffset} (relative to the object start). */
  MalformedObjectException malformed(long relOffset, String detail) {
    return new MalformedObjectException(path, relOffset < 0 ? -1 : base + relOffset, detail);
  }

  /** Checks that {@code [relOffset, relOffset + size)} lies inside the object. */
  void checkRange(long relOffset, long size, String what) throws MalformedObjectException {
    if (relOffset < 0 || size < 0 || relOffset > length || size > length - relOffset) {
      throw malformed(
          relOffset,
          String.format(
              "%s: expected bytes 0x%x..0x%x inside the object of 0x%x bytes, found them past its"
                  + " end",
              what, relOffset, relOffset + size, length));
    }
  }

  /** Reads {@code size} bytes at {@code relOffset} after a bounds check. */
  byte[] read(long relOffset, long size, String what) throws IOException {
    checkRange(relOffset, size, what);
    if (size > MAX_ARRAY) {
      throw malformed(
          relOffset,
          String.format(
              "%s: expected at most %d bytes to read into memory, found %d",
              what, MAX_ARRAY, size));
    }
    if (memory != null) {
      return Arrays.copyOfRange(memory, (int) relOffset, (int) (relOffset + size));
    }
    ByteBuffer buf = ByteBuffer.allocate((int) size);
    long pos = base + relOffset;
    while (buf.hasRemaining()) {
      int n = channel.read(buf, pos + buf.position());
      if (n < 0) {
        throw malformed(
            relOffset + buf.position(),
            String.format(
                "%s: expected %d bytes, found end of file after %d", what, size, buf.position()));
      }
    }
    return buf.array();
  }

  /** Reads bytes and wraps them in a buffer of the given byte order. */
  ByteBuffer read(long relOffset, long size, ByteOrder order, String what) throws IOException {
    return ByteBuffer.wrap(read(relOffset, size, what)).order(order);
  }

  /** Copies {@code size} bytes at {@code relOffset} to {@code out} after a bounds check. */
  void transferTo(long relOffset, long size, WritableByteChannel out, String what)
      throws IOException {
    checkRange(relOffset, size, what);
    if (memory != null) {
      ByteBuffer from = ByteBuffer.wrap(memory, (int) relOffset, (int) size);
      while (from.hasRemaining()) {
        out.write(from);
      }
      return;
    }
    long done = 0;
    while (done < size) {
      long n = channel.transferTo(base + relOffset + done, size - done, out);
      if (n <= 0) {
        throw malformed(relOffset + done, what + ": expected more bytes, found end of file");
      }
      done += n;
    }
  }

  @Override
  public void close() throws IOException {
    if (channel != null) {
      channel.close();
    }
  }
}
