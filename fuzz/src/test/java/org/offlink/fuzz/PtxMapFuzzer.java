package org.offlink.fuzz;

import java.nio.file.Path;
import org.offlink.bridge.nvptx.PtxImageParser;
import org.offlink.streamer.MalformedObjectException;

/**
 * The linked-PTX parser: the {@code //:VAR_MAP}, {@code //:FUNC_MAP} and {@code //:IND_FUNC_MAP}
 * records nvptx-ld leaves in the PTX, and the chunking of the text into GCC's string pieces.
 */
public final class PtxMapFuzzer {
  private PtxMapFuzzer() {}

  private static final Path NAME = Path.of("fuzz.ptx");

  /** Entry point for Jazzer's command line (scripts/fuzz.sh). */
  public static void fuzzerTestOneInput(byte[] data) {
    try {
      PtxImageParser.parse(data, NAME);
    } catch (MalformedObjectException e) {
      // rejected cleanly
    }
  }
}
