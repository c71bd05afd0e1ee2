package org.offlink.fuzz;

import java.nio.file.Path;
import java.util.Arrays;
import org.offlink.streamer.MalformedObjectException;
import org.offlink.streamer.lto.LtoCompression;
import org.offlink.streamer.lto.LtoHeaderReader;
import org.offlink.streamer.lto.LtoPayload;

/**
 * LTO section decoding: the 8-byte {@code .gnu.lto_.lto} header, then a compressed section body as
 * zstd or zlib (the first input byte picks which, the rest is the body). A zstd or zlib bomb must
 * stop at the decompression limit with {@link MalformedObjectException}, not exhaust the heap.
 */
public final class LtoSectionFuzzer {
  private LtoSectionFuzzer() {}

  private static final Path NAME = Path.of("fuzz.o");

  /** Entry point for Jazzer's command line (scripts/fuzz.sh). */
  public static void fuzzerTestOneInput(byte[] data) {
    if (data.length == 0) {
      return;
    }
    byte[] body = Arrays.copyOfRange(data, 1, data.length);
    try {
      LtoHeaderReader.read(NAME, 0, body);
    } catch (MalformedObjectException e) {
      // rejected cleanly
    }
    LtoCompression kind =
        switch (data[0] & 3) {
          case 0, 1 -> LtoCompression.ZSTD;
          case 2 -> LtoCompression.ZLIB;
          default -> LtoCompression.UNKNOWN;
        };
    try {
      LtoPayload.decompress(NAME, 0, body, kind);
    } catch (MalformedObjectException e) {
      // rejected cleanly
    }
  }
}
