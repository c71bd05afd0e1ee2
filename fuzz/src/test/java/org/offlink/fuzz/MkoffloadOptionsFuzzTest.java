package org.offlink.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Replays {@link MkoffloadOptionsFuzzer}'s committed seeds and named crash regressions (resources
 * under {@code MkoffloadOptionsFuzzTestInputs/}) in the normal test run; {@code JAZZER_FUZZ=1}
 * fuzzes from JUnit.
 */
public class MkoffloadOptionsFuzzTest {
  @FuzzTest(maxDuration = "10s")
  void mkoffloadOptions(FuzzedDataProvider in) {
    MkoffloadOptionsFuzzer.fuzzerTestOneInput(in);
  }
}
