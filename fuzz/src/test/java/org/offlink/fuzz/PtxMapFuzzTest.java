package org.offlink.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Replays {@link PtxMapFuzzer}'s committed seeds and named crash regressions (resources under
 * {@code PtxMapFuzzTestInputs/}) in the normal test run; {@code JAZZER_FUZZ=1} fuzzes from JUnit.
 */
public class PtxMapFuzzTest {
  @FuzzTest(maxDuration = "10s")
  void ptxMap(byte[] data) {
    PtxMapFuzzer.fuzzerTestOneInput(data);
  }
}
