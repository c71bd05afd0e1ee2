package org.offlink.fuzz;

import java.io.IOException;
import java.nio.file.Path;
import org.offlink.streamer.MalformedObjectException;
import org.offlink.streamer.inspect.BinaryInspector;
import org.offlink.streamer.inspect.HsacoTarget;

/**
 * Linked-program and device-image inspection, as {@code offlink inspect} runs it: the offload
 * tables and registration calls of a host executable, the PTX and HSACO images they point at, LLVM
 * offload binaries, and an HSACO header on its own.
 */
public final class ImageInspectFuzzer {
  private ImageInspectFuzzer() {}

  /** Entry point for Jazzer's command line (scripts/fuzz.sh). */
  public static void fuzzerTestOneInput(byte[] data) throws IOException {
    Path file = FuzzFiles.write("program", data);
    try {
      BinaryInspector.inspect(file);
    } catch (MalformedObjectException e) {
      // rejected cleanly
    }
    try {
      HsacoTarget.of(data, file);
    } catch (MalformedObjectException e) {
      // rejected cleanly
    }
  }
}
