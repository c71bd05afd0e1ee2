package org.offlink.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;

/**
 * Replays {@link ElfReaderFuzzer}'s committed seeds and named crash regressions (resources under
 * {@code ElfReaderFuzzTestInputs/}) in the normal test run; {@code JAZZER_FUZZ=1} fuzzes from
 * JUnit.
 */
public class ElfReaderFuzzTest {
  @FuzzTest(maxDuration = "10s")
  void elfReader(byte[] data) throws IOException {
    ElfReaderFuzzer.fuzzerTestOneInput(data);
  }
}
