package org.offlink.ltowrapper.offload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.offlink.bridge.OfflinkFlags;
import org.offlink.bridge.OfflinkFlags.OffloadFailure;
import org.offlink.ltowrapper.cache.CacheRequest;
import org.offlink.ltowrapper.plan.LinkPlan;
import org.offlink.ltowrapper.plan.LinkerOutput;
import org.offlink.ltowrapper.run.DumpNames;

class OffloadPolicyTest {
  private static LinkPlan.Settings settings(
      boolean saveTemps,
      boolean targetDefault,
      Optional<Boolean> parallel,
      OfflinkFlags flags,
      String kind) {
    return new LinkPlan.Settings(
        Optional.empty(),
        saveTemps,
        false,
        false,
        false,
        Optional.empty(),
        DumpNames.of(null, null),
        new LinkerOutput(Optional.ofNullable(kind), false),
        Optional.empty(),
        List.of("nvptx-none", "amdgcn-amdhsa"),
        targetDefault,
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        parallel,
        flags,
        false,
        new CacheRequest.Off(Optional.empty()),
        Optional.empty());
  }

  @Test
  void parallelByDefaultForTwoTargetsOrInProcessButSerialWithSaveTemps() {
    OfflinkFlags none = OfflinkFlags.NONE;
    assertTrue(
        OffloadPolicy.decide(settings(false, false, Optional.empty(), none, null), 2, false)
            .parallel());
    assertTrue(
        OffloadPolicy.decide(settings(false, false, Optional.empty(), none, null), 1, true)
            .parallel());
    assertFalse(
        OffloadPolicy.decide(settings(false, false, Optional.empty(), none, null), 1, false)
            .parallel());
    OffloadPolicy saveTemps =
        OffloadPolicy.decide(settings(true, false, Optional.empty(), none, null), 2, true);
    assertFalse(saveTemps.parallel());
    assertFalse(saveTemps.perTargetResponseFiles(), "GCC 12's shared offload_args name");
    OffloadPolicy forced =
        OffloadPolicy.decide(settings(true, false, Optional.of(true), none, null), 2, false);
    assertTrue(forced.parallel() && forced.perTargetResponseFiles());
    assertFalse(
        OffloadPolicy.decide(settings(false, false, Optional.of(false), none, null), 2, true)
            .parallel());
  }

  @Test
  void failurePolicyAndTableChoice() {
    OfflinkFlags fatal = OfflinkFlags.parse(java.util.List.of("--offload-failure=fatal"));
    assertEquals(
        OffloadFailure.WARN,
        OffloadPolicy.decide(
                settings(false, true, Optional.empty(), OfflinkFlags.NONE, "pie"), 2, false)
            .failure());
    assertEquals(
        OffloadFailure.FATAL,
        OffloadPolicy.decide(settings(false, true, Optional.empty(), fatal, "pie"), 2, false)
            .failure());
    assertEquals(
        OffloadFailure.FATAL,
        OffloadPolicy.decide(
                settings(false, false, Optional.empty(), OfflinkFlags.NONE, "pie"), 2, false)
            .failure());
    assertTrue(
        OffloadPolicy.decide(
                settings(false, false, Optional.empty(), OfflinkFlags.NONE, "pie"), 2, false)
            .positionIndependentTable());
    assertTrue(
        OffloadPolicy.decide(
                settings(false, false, Optional.empty(), OfflinkFlags.NONE, "dyn"), 2, false)
            .positionIndependentTable());
    assertTrue(
        OffloadPolicy.decide(
                settings(false, false, Optional.empty(), OfflinkFlags.NONE, null), 2, false)
            .positionIndependentTable());
    assertFalse(
        OffloadPolicy.decide(
                settings(false, false, Optional.empty(), OfflinkFlags.NONE, "exec"), 2, false)
            .positionIndependentTable());
  }
}
