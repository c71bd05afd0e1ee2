package org.offlink.streamer.inspect;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import org.offlink.runtime.Sha256Digest;

/** SHA-256 as lower-case hex, for image fingerprints. */
public final class Sha256 {
  private Sha256() {}

  /** The SHA-256 of {@code data} in lower-case hex. */
  public static String hex(byte[] data) {
    return HexFormat.of().formatHex(Sha256Digest.of(data));
  }

  /** The SHA-256 of the file {@code file}, read in pieces (it may be larger than memory allows). */
  public static String hex(Path file) throws IOException {
    Sha256Digest d = new Sha256Digest();
    byte[] buffer = new byte[64 * 1024];
    try (InputStream in = Files.newInputStream(file)) {
      for (int n; (n = in.read(buffer)) > 0; ) {
        d.update(buffer, 0, n);
      }
    }
    return HexFormat.of().formatHex(d.digest());
  }
}
