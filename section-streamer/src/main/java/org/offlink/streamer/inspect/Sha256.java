package org.offlink.streamer.inspect;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256 as lower-case hex, for image fingerprints. */
public final class Sha256 {
  private Sha256() {}

  /** The SHA-256 of {@code data} in lower-case hex. */
  public static String hex(byte[] data) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }
}
