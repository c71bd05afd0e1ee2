package org.offlink.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.offlink.bridge.OfflinkFlags.OffloadFailure;
import org.offlink.bridge.mkoffload.MkoffloadInvocation;
import org.offlink.bridge.wrapper.WrapperMode;

/** The one OFFLINK_FLAGS table, read by lto-wrapper and mkoffload alike. */
class OfflinkFlagsTest {
  @Test
  void everyWordIsRead() {
    OfflinkFlags f =
        OfflinkFlags.fromEnvironment(
            Map.of(
                "OFFLINK_FLAGS",
                "--wrapper=c --offload-failure=fatal --no-consistency-check --parallel-offload"
                    + " --keep-host-hardening"));
    assertEquals(Optional.of(WrapperMode.C), f.wrapper());
    assertEquals(Optional.of(OffloadFailure.FATAL), f.offloadFailure());
    assertFalse(f.consistencyCheck());
    assertEquals(Optional.of(true), f.parallelOffload());
    assertTrue(f.keepHostHardening());
    assertFalse(OfflinkFlags.NONE.keepHostHardening(), "GCC 12's forwarding is not the default");
    assertEquals(
        Optional.of(false),
        OfflinkFlags.parse(List.of("--parallel-offload", "--serial-offload")).parallelOffload(),
        "the last word wins");
    assertEquals(OfflinkFlags.NONE, OfflinkFlags.fromEnvironment(Map.of()));
  }

  @Test
  void theCacheIsOnAndWritableUnlessTurnedOff() {
    assertTrue(OfflinkFlags.NONE.cache());
    assertFalse(OfflinkFlags.NONE.remoteCacheReadOnly());
    OfflinkFlags f = OfflinkFlags.parse(List.of("--no-cache", "--remote-cache-read-only"));
    assertFalse(f.cache());
    assertTrue(f.remoteCacheReadOnly());
    assertTrue(f.consistencyCheck(), "other fields are kept");
  }

  @Test
  void theServerIsUsedUnlessTurnedOffAndTheToolsAcceptTheWord() {
    assertTrue(OfflinkFlags.NONE.server());
    OfflinkFlags f = OfflinkFlags.parse(List.of("--no-server", "--no-cache"));
    assertFalse(f.server());
    assertFalse(f.cache(), "other words still apply");
    assertEquals(
        OfflinkFlags.Tool.CLIENT, OfflinkFlags.Flag.of("--no-server").orElseThrow().tool());
  }

  @Test
  void theGcnLinkStepStartsEarlyUnlessSerialIsAsked() {
    assertTrue(OfflinkFlags.NONE.earlyGcnLink());
    OfflinkFlags f = OfflinkFlags.parse(List.of("--serial-gcn-link", "--external-nvptx-ld"));
    assertFalse(f.earlyGcnLink());
    assertFalse(f.inProcessNvptxLinker(), "other words still apply");
    assertTrue(f.cache(), "other fields are kept");
    assertEquals(
        OfflinkFlags.Tool.MKOFFLOAD,
        OfflinkFlags.Flag.of("--serial-gcn-link").orElseThrow().tool());
  }

  @Test
  void deviceJobsIsOffUnlessGivenAPositiveCount() {
    assertEquals(Optional.empty(), OfflinkFlags.NONE.deviceJobs());
    assertEquals(Optional.of(2), OfflinkFlags.parse(List.of("--device-jobs=2")).deviceJobs());
    assertEquals(
        Optional.of(16),
        OfflinkFlags.parse(List.of("--device-jobs=4", "--device-jobs=16")).deviceJobs(),
        "the last word wins");
  }

  @Test
  void unknownWordsAndValuesAreOneLineErrorsNamingTheVariable() {
    for (String bad :
        List.of(
            "--frobnicate",
            "--offload-failure=maybe",
            "--wrapper",
            "--device-jobs=0",
            "--device-jobs=",
            "--device-jobs=two",
            "--device-jobs=-1",
            "--device-jobs=99999")) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> OfflinkFlags.parse(List.of(bad)));
      assertTrue(e.getMessage().startsWith("OFFLINK_FLAGS: "), e.getMessage());
      assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }
    assertThrows(
        IllegalArgumentException.class, () -> OfflinkFlags.parse(List.of("--wrapper=asm")));
  }

  @Test
  void mkoffloadAcceptsLtoWrapperWordsAndRejectsUnknownOnes() {
    Map<String, String> env =
        Map.of(
            "OFFLINK_FLAGS",
            "--offload-failure=warn --serial-offload --keep-host-hardening --wrapper=c");
    assertEquals(
        WrapperMode.C,
        MkoffloadInvocation.parse(List.of("-o", "x.o"), "/p/accel/nvptx-none/mkoffload", env)
            .mode());
    assertEquals(
        WrapperMode.ELF,
        MkoffloadInvocation.parse(List.of("--wrapper=elf"), "/p/accel/nvptx-none/mkoffload", env)
            .mode(),
        "argv overrides the environment");
    assertThrows(
        IllegalArgumentException.class,
        () ->
            MkoffloadInvocation.parse(
                List.of(), "/p/accel/nvptx-none/mkoffload", Map.of("OFFLINK_FLAGS", "--nope")));
  }
}
