package org.offlink.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;

/**
 * Replays {@link RequestDecoderFuzzer}'s committed seeds and named crash regressions (resources
 * under {@code RequestDecoderFuzzTestInputs/}) in the normal test run; {@code JAZZER_FUZZ=1} fuzzes
 * from JUnit.
 */
public class RequestDecoderFuzzTest {
  @FuzzTest(maxDuration = "10s")
  void request(byte[] data) throws IOException {
    RequestDecoderFuzzer.fuzzerTestOneInput(data);
  }
}
