package org.offlink.ltowrapper.cache;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.offlink.ltowrapper.cache.ActionResultCodec.EntryDigests;

/**
 * Authenticated remote entries (opt-in): writers and readers share a secret key, in the file named
 * by {@value #KEY_FILE_VARIABLE}; a writer puts an HMAC-SHA256 of the entry into it, a reader takes
 * only entries whose HMAC it can recompute. The HMAC covers the cache key and both blobs' digests,
 * so a server (or anyone who can write to it without the key) can neither forge an entry, nor move
 * a real one to another key, nor swap a blob: the blobs are then checked against their digests as
 * always. It is carried in the {@code ActionResult}'s {@code stdout_raw} bytes as {@code
 * offlink-hmac-sha256:<64 hex digits>}, which Bazel-compatible servers store as they are.
 *
 * <p>The key file: a regular file of 16 to 4096 bytes (trailing white space is not part of the
 * key), readable and writable by nobody but its owner and group.
 */
final class EntrySigner {
  /** The variable naming the key file. */
  static final String KEY_FILE_VARIABLE = "OFFLINK_REMOTE_CACHE_HMAC_KEY_FILE";

  private static final String PREFIX = "offlink-hmac-sha256:";
  private static final String ALGORITHM = "HmacSHA256";
  private static final int MIN_KEY = 16;
  private static final int MAX_KEY = 4096;

  // Made when the settings are read: the JDK's crypto providers take a cold JVM a few hundred
  // milliseconds to set up, which must not eat into a look-up's request limit.
  private final Mac mac;
  private final int keyLength;

  private EntrySigner(byte[] key) {
    try {
      mac = Mac.getInstance(ALGORITHM);
      mac.init(new SecretKeySpec(key, ALGORITHM));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK has no " + ALGORITHM, e); // every JDK has it
    }
    keyLength = key.length;
  }

  /**
   * The signer {@code env} names, or empty without {@value #KEY_FILE_VARIABLE}.
   *
   * @throws IllegalArgumentException (one line, naming the variable and the file) when the key file
   *     cannot be read, is not a regular file, is too short or long, or others may read or write it
   */
  static Optional<EntrySigner> fromEnvironment(Map<String, String> env) {
    String name = env.getOrDefault(KEY_FILE_VARIABLE, "");
    if (name.isEmpty()) {
      return Optional.empty();
    }
    Path file = Path.of(name);
    try {
      Path real = file.toRealPath();
      FileStat st = FileStat.of(real);
      if (st == null || !st.isRegularFile()) {
        throw bad(file, "expected a regular file, found " + (st == null ? "nothing" : st.kind()));
      }
      if ((st.mode() & 0006) != 0) {
        throw bad(file, "others may read or write it (mode " + st.permissions() + "): chmod o-rw");
      }
      if (st.size() > MAX_KEY) {
        throw bad(file, "expected at most " + MAX_KEY + " bytes, found " + st.size());
      }
      byte[] key = strip(Files.readAllBytes(real));
      if (key.length < MIN_KEY) {
        throw bad(file, "expected a key of at least " + MIN_KEY + " bytes, found " + key.length);
      }
      return Optional.of(new EntrySigner(key));
    } catch (IOException e) {
      throw bad(file, "cannot be read (" + e.getMessage() + ")");
    }
  }

  /** The {@code stdout_raw} bytes that sign {@code digests} as the entry of {@code key}. */
  byte[] sign(CacheKey key, EntryDigests digests) {
    return (PREFIX + HexFormat.of().formatHex(mac(key, digests)))
        .getBytes(StandardCharsets.US_ASCII);
  }

  /**
   * Whether {@code signature} (an entry's {@code stdout_raw}) signs {@code digests} for {@code
   * key}.
   */
  boolean verify(CacheKey key, EntryDigests digests, byte[] signature) {
    return MessageDigest.isEqual(sign(key, digests), signature);
  }

  private synchronized byte[] mac(CacheKey key, EntryDigests d) {
    String text =
        "offlink remote entry 1\n"
            + key.hex()
            + "\n"
            + d.object().hash()
            + " "
            + d.object().sizeBytes()
            + "\n"
            + d.counts().hash()
            + " "
            + d.counts().sizeBytes()
            + "\n";
    return mac.doFinal(text.getBytes(StandardCharsets.US_ASCII));
  }

  private static byte[] strip(byte[] bytes) {
    int end = bytes.length;
    while (end > 0 && Character.isWhitespace(bytes[end - 1])) {
      end--;
    }
    return Arrays.copyOf(bytes, end);
  }

  private static IllegalArgumentException bad(Path file, String what) {
    return new IllegalArgumentException(KEY_FILE_VARIABLE + ": " + file + ": " + what);
  }

  /** Never shows the key. */
  @Override
  public String toString() {
    return "EntrySigner[HMAC-SHA256, key of " + keyLength + " bytes]";
  }
}
