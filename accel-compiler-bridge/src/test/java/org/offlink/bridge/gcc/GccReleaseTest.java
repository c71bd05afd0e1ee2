package org.offlink.bridge.gcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.offlink.bridge.tool.OffloadTarget;

class GccReleaseTest {
  @ParameterizedTest
  @CsvSource({
    // major, nvptx word, gcn word, mask, indirect, table entries (delta §3.1, §3.3)
    "12, 0x10001, 0x10002, false, false, 4",
    "13, 0x20001, 0x20003, true, false, 4",
    "14, 0x30001, 0x30003, true, true, 6",
    "15, 0x30001, 0x30003, true, true, 6",
    "16, 0x30001, 0x30003, true, true, 6"
  })
  void registrationContractPerMajor(
      int major, String nvptx, String gcn, boolean mask, boolean indirect, int entries) {
    GccRelease r = GccRelease.of(major);
    assertEquals(Integer.decode(nvptx), r.nvptx().version());
    assertEquals(Integer.decode(gcn), r.gcn().version());
    assertEquals(mask, r.layout().requiresMask());
    assertEquals(indirect, r.layout().indirectFunctions());
    assertEquals(entries, r.layout().offloadTableEntries());
  }

  @Test
  void versionTextsNameTheMajorsWithASupportedTarget() {
    assertEquals("GCC 12 to 16", GccRelease.compatibility(Optional.empty()));
    assertEquals("GCC 12 to 16", GccRelease.compatibility(Optional.of(OffloadTarget.NVPTX)));
    // Follows the data: amdgcn for 16 counts once its record stops refusing it.
    List<Integer> gcn = GccRelease.supportedMajors(OffloadTarget.AMDGCN);
    assertEquals(
        "GCC 12 to " + gcn.get(gcn.size() - 1),
        GccRelease.compatibility(Optional.of(OffloadTarget.AMDGCN)));
    assertEquals(GccRelease.of(16).gcn().refusal().isEmpty(), gcn.contains(16));
  }

  @Test
  void linkStepDifferences() {
    assertEquals(new GccRelease.LinkStep(false, false, false, false), GccRelease.of(12).linkStep());
    assertEquals(new GccRelease.LinkStep(true, true, false, false), GccRelease.of(13).linkStep());
    assertEquals(new GccRelease.LinkStep(true, true, true, false), GccRelease.of(14).linkStep());
    assertEquals(new GccRelease.LinkStep(true, true, true, true), GccRelease.of(15).linkStep());
  }

  @Test
  void nvptxMkoffloadDifferences() {
    assertEquals(List.of(), GccRelease.of(14).nvptx().extraAccelFlags());
    assertEquals(List.of("-mfake-exceptions"), GccRelease.of(15).nvptx().extraAccelFlags());
    assertFalse(GccRelease.of(14).nvptx().requiresHostOpts());
    assertTrue(GccRelease.of(15).nvptx().requiresHostOpts());
    assertEquals(List.of(), GccRelease.of(13).nvptx().libraryRewrites());
    assertEquals(List.of("gfortran", "m"), GccRelease.of(14).nvptx().libraryRewrites());
    assertEquals(List.of("gfortran", "m", "stdc++"), GccRelease.of(15).nvptx().libraryRewrites());
    assertEquals("sm_30", GccRelease.of(14).nvptx().defaultArch());
    assertEquals("sm_52", GccRelease.of(15).nvptx().defaultArch());
  }

  @Test
  void installLayoutMovesToLibexecIn13() {
    GccInstallation twelve = new GccInstallation("x86_64-linux-gnu", new GccVersion(12, 2, 0));
    GccInstallation fourteen = new GccInstallation("x86_64-linux-gnu", new GccVersion(14, 2, 0));
    assertEquals(
        Path.of("/usr/lib/gcc/x86_64-linux-gnu/12/accel/nvptx-none"),
        twelve.debianAccelToolDirectory(OffloadTarget.NVPTX));
    assertEquals(
        Path.of("/usr/libexec/gcc/x86_64-linux-gnu/14/accel/amdgcn-amdhsa"),
        fourteen.debianAccelToolDirectory(OffloadTarget.AMDGCN));
  }

  @Test
  void gateIsPerTarget() {
    assertTrue(GccRelease.of(12).refusal(OffloadTarget.NVPTX).isEmpty());
    assertTrue(GccRelease.of(12).refusal(OffloadTarget.AMDGCN).isEmpty());
    for (int major : List.of(13, 14, 15, 16)) {
      assertTrue(GccRelease.of(major).refusal(OffloadTarget.AMDGCN).isEmpty(), "gcn " + major);
      assertTrue(GccRelease.of(major).refusal(OffloadTarget.NVPTX).isEmpty(), "nvptx " + major);
      assertEquals("nvptx mkoffload", GccRelease.of(major).mkoffloadName(OffloadTarget.NVPTX));
      assertEquals("gcn mkoffload", GccRelease.of(major).mkoffloadName(OffloadTarget.AMDGCN));
    }
    assertEquals("mkoffload", GccRelease.of(12).mkoffloadName(OffloadTarget.NVPTX));
    assertEquals("mkoffload", GccRelease.of(12).mkoffloadName(OffloadTarget.AMDGCN));
    GccRelease unknown = GccRelease.of(11);
    assertFalse(unknown.anyTargetSupported());
  }
}
