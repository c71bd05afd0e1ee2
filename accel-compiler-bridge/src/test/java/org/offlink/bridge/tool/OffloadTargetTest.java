package org.offlink.bridge.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class OffloadTargetTest {
  @Test
  void debianPackagesAreNamedAfterTheTargetCpu() {
    assertEquals("gcc-12-offload-nvptx", OffloadTarget.NVPTX.debianPackage(12));
    assertEquals("gcc-14-offload-amdgcn", OffloadTarget.AMDGCN.debianPackage(14));
  }

  @Test
  void looksTargetsUpByTriplet() {
    assertEquals(Optional.of(OffloadTarget.AMDGCN), OffloadTarget.byTriplet("amdgcn-amdhsa"));
    assertEquals(Optional.empty(), OffloadTarget.byTriplet("amdgcn"));
  }
}
