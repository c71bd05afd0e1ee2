package org.offlink.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;

/**
 * Replays {@link ArchiveFuzzer}'s committed seeds and named crash regressions (resources under
 * {@code ArchiveFuzzTestInputs/}) in the normal test run; {@code JAZZER_FUZZ=1} fuzzes from JUnit.
 */
public class ArchiveFuzzTest {
  @FuzzTest(maxDuration = "10s")
  void archive(byte[] data) throws IOException {
    ArchiveFuzzer.fuzzerTestOneInput(data);
  }
}
