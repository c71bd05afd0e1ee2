package org.offlink.fuzz;

import java.nio.file.Path;
import java.util.List;
import org.offlink.streamer.MalformedObjectException;
import org.offlink.streamer.opts.OptsSection;

/**
 * The {@code .gnu.offload_lto_.opts} section parser (NUL-terminated, GCC-quoted option lists). A
 * section that parses must also survive the round trip: formatting the lists and parsing them again
 * gives the same lists.
 */
public final class OptsFuzzer {
  private OptsFuzzer() {}

  private static final Path NAME = Path.of("fuzz.o");

  /** Entry point for Jazzer's command line (scripts/fuzz.sh). */
  public static void fuzzerTestOneInput(byte[] data) throws MalformedObjectException {
    List<List<String>> lists;
    try {
      lists = OptsSection.parse(NAME, 0, data);
    } catch (MalformedObjectException e) {
      return; // rejected cleanly
    }
    List<List<String>> again = OptsSection.parse(NAME, 0, OptsSection.format(lists));
    if (!again.equals(lists)) {
      throw new IllegalStateException("round trip changed " + lists + " into " + again);
    }
  }
}
