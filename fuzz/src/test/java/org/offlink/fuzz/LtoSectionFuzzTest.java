package org.offlink.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Replays {@link LtoSectionFuzzer}'s committed seeds and named crash regressions (resources under
 * {@code LtoSectionFuzzTestInputs/}) in the normal test run; {@code JAZZER_FUZZ=1} fuzzes from
 * JUnit.
 */
public class LtoSectionFuzzTest {
  @FuzzTest(maxDuration = "10s")
  void ltoSection(byte[] data) {
    LtoSectionFuzzer.fuzzerTestOneInput(data);
  }
}
