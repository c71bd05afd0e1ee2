package org.offlink.cli.replay;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.offlink.ltowrapper.report.proto.Image;
import org.offlink.ltowrapper.report.proto.LinkReport;
import org.offlink.ltowrapper.report.proto.Target;
import org.offlink.ltowrapper.report.proto.TargetStatus;

/** What makes a replay the same as the recorded link, and what does not. */
class ReplayComparisonTest {
  private static LinkReport report(int status, TargetStatus target, String sha) {
    LinkReport.Builder b =
        LinkReport.newBuilder()
            .setExitStatus(status)
            .addTargets(Target.newBuilder().setName("nvptx-none").setStatus(target))
            .addOutputLines("/tmp/cc1.o");
    if (!sha.isEmpty()) {
      b.addImages(Image.newBuilder().setTarget("nvptx-none").setImageSize(10).setSha256(sha));
    }
    return b.build();
  }

  @Test
  void sameOutcomeAndDigestsAreTheSame() {
    ReplayComparison c =
        ReplayComparison.of(
            report(0, TargetStatus.TARGET_STATUS_OK, "ab"),
            report(0, TargetStatus.TARGET_STATUS_OK, "ab"));
    assertTrue(c.same(), c.lines().toString());
    assertTrue(c.lines().get(c.lines().size() - 1).contains("byte-identical"));
  }

  @Test
  void anyDifferenceIsNamed() {
    LinkReport recorded = report(0, TargetStatus.TARGET_STATUS_OK, "ab");
    ReplayComparison image =
        ReplayComparison.of(recorded, report(0, TargetStatus.TARGET_STATUS_OK, "cd"));
    assertFalse(image.same());
    assertTrue(
        image
            .lines()
            .contains(
                "image nvptx-none: 10 bytes, sha256 cd (recorded: 10 bytes,"
                    + " sha256 ab) DIFFERENT"),
        image.lines().toString());
    assertFalse(
        ReplayComparison.of(recorded, report(1, TargetStatus.TARGET_STATUS_FAILED, "")).same());
    assertFalse(
        ReplayComparison.of(report(1, TargetStatus.TARGET_STATUS_FAILED, ""), recorded).same(),
        "an image that only the replay has is a difference too");
  }
}
