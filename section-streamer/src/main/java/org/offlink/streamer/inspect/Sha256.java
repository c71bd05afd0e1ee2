package org.offlink.streamer.inspect;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256 as lower-case hex, for image fingerprints. */
public final class Sha256 {
  private Sha256() {}

  /** The SHA-256 of {@code data} in lower-case hex. */
  public static String hex(byte[] data) {
    return HexFormat.of().formatHex(digest().digest(data));
  }

  /** The SHA-256 of the file {@code file}, read in pieces (it may be larger than memory allows). */
  public static String hex(Path file) throws IOException {
    MessageDigest d = digest();
    try (InputStream in = new DigestInputStream(Files.newInputStream(file), d)) {
      in.transferTo(OutputStream.nullOutputStream());
    }
    return HexFormat.of().formatHex(d.digest());
  }

  private static MessageDigest digest() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }
}
