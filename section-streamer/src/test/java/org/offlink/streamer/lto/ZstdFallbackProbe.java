package org.offlink.streamer.lto;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/** Run in a fresh JVM by {@link ZstdDecodingTest}: decodes with an unusable unpack directory. */
public final class ZstdFallbackProbe {
  private ZstdFallbackProbe() {}

  /** args: the unpack directory, the file to write the result to. */
  public static void main(String[] args) throws Exception {
    byte[] plain = ZstdDecodingTest.sample();
    // A frame written by the pure-Java encoder: the native library must not be touched first.
    byte[] frame = new byte[plain.length + 1024];
    int n =
        new io.airlift.compress.zstd.ZstdCompressor()
            .compress(plain, 0, plain.length, frame, 0, frame.length);
    ZstdDecoding.unpackInto(Path.of(args[0]));
    byte[] back;
    try (InputStream in = ZstdDecoding.open(new ByteArrayInputStream(frame, 0, n))) {
      back = in.readAllBytes();
    }
    Files.writeString(
        Path.of(args[1]),
        "native=" + ZstdDecoding.nativeLoaded() + " ok=" + Arrays.equals(plain, back) + "\n");
  }
}
