package org.offlink.ltowrapper.cache;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.offlink.runtime.Sha256Digest;

/**
 * A SHA-256 ({@link Sha256Digest}, no JCA start-up on the link's path) over labelled fields, each
 * written as its label, its length and its bytes, so that no two different field lists hash alike
 * by running into each other.
 */
final class KeyDigest {
  private final Sha256Digest sha = new Sha256Digest();
  private static final byte[] ZERO = {0};
  private final ByteBuffer length = ByteBuffer.allocate(Long.BYTES);

  /** Adds a text field. */
  KeyDigest add(String label, String value) {
    return add(label, value.getBytes(StandardCharsets.UTF_8));
  }

  /** Adds a byte field. */
  KeyDigest add(String label, byte[] value) {
    begin(label, value.length);
    sha.update(value);
    return this;
  }

  /** Starts a field of {@code size} bytes that the caller then feeds with {@link #update}. */
  void begin(String label, long size) {
    sha.update(label.getBytes(StandardCharsets.UTF_8));
    sha.update(ZERO);
    length.clear();
    length.putLong(size);
    sha.update(length.array());
  }

  /** Feeds the bytes of the field begun last. */
  void update(ByteBuffer bytes) {
    sha.update(bytes);
  }

  /** Feeds {@code len} bytes of {@code bytes} from {@code off} to the field begun last. */
  void update(byte[] bytes, int off, int len) {
    sha.update(bytes, off, len);
  }

  /** The digest; the object is not used afterwards. */
  byte[] finish() {
    return sha.digest();
  }
}
