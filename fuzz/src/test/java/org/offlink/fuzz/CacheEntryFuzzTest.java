package org.offlink.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;

/**
 * Replays {@link CacheEntryFuzzer}'s committed seeds and named crash regressions (resources under
 * {@code CacheEntryFuzzTestInputs/}) in the normal test run; {@code JAZZER_FUZZ=1} fuzzes from
 * JUnit.
 */
public class CacheEntryFuzzTest {
  @FuzzTest(maxDuration = "10s")
  void cacheEntry(byte[] data) throws IOException {
    CacheEntryFuzzer.fuzzerTestOneInput(data);
  }
}
