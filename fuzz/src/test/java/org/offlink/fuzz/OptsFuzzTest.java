package org.offlink.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.offlink.streamer.MalformedObjectException;

/**
 * Replays {@link OptsFuzzer}'s committed seeds and named crash regressions (resources under {@code
 * OptsFuzzTestInputs/}) in the normal test run; {@code JAZZER_FUZZ=1} fuzzes from JUnit.
 */
public class OptsFuzzTest {
  @FuzzTest(maxDuration = "10s")
  void opts(byte[] data) throws MalformedObjectException {
    OptsFuzzer.fuzzerTestOneInput(data);
  }
}
