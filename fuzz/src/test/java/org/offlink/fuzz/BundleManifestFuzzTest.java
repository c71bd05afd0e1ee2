package org.offlink.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Replays {@link BundleManifestFuzzer}'s committed seeds and named crash regressions (resources
 * under {@code BundleManifestFuzzTestInputs/}) in the normal test run; {@code JAZZER_FUZZ=1} fuzzes
 * from JUnit.
 */
public class BundleManifestFuzzTest {
  @FuzzTest(maxDuration = "10s")
  void bundleManifest(byte[] data) {
    BundleManifestFuzzer.fuzzerTestOneInput(data);
  }
}
