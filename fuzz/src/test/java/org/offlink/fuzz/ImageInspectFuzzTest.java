package org.offlink.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;

/**
 * Replays {@link ImageInspectFuzzer}'s committed seeds and named crash regressions (resources under
 * {@code ImageInspectFuzzTestInputs/}) in the normal test run; {@code JAZZER_FUZZ=1} fuzzes from
 * JUnit.
 */
public class ImageInspectFuzzTest {
  @FuzzTest(maxDuration = "10s")
  void imageInspect(byte[] data) throws IOException {
    ImageInspectFuzzer.fuzzerTestOneInput(data);
  }
}
