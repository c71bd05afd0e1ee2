package org.offlink.bridge.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class RequiresMasksTest {
  @Test
  void theWholeProgramMaskIsTheFirstNonZeroOne() throws WholeProgramNeeded {
    assertEquals(0, RequiresMasks.combine(List.of(0, 0)));
    assertEquals(0x200, RequiresMasks.combine(List.of(0, 0x200, 0x200)));
    assertEquals(0x2a0, RequiresMasks.combine(List.of(0x2a0, 0x2a0)));
  }

  @Test
  void partitionsThatSawADifferentMaskNeedTheWholeProgram() {
    // GCC reports the mismatch; only the whole-program compile gives its error
    assertThrows(WholeProgramNeeded.class, () -> RequiresMasks.combine(List.of(0x200, 0x220)));
    // unified_shared_memory could change what a partition that saw 0 compiled
    assertThrows(WholeProgramNeeded.class, () -> RequiresMasks.combine(List.of(0, 0x220)));
  }
}
