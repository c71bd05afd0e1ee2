package org.offlink.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.offlink.bridge.doctor.JvmFacts;
import org.offlink.bridge.gcc.GccRelease;
import org.offlink.bridge.tool.OffloadTarget;
import org.offlink.runtime.LinkContext;
import org.offlink.runtime.LinkScope;

/** {@code offlink gcc-support}: the table the Debian package's diversions follow. */
class GccSupportCommandTest {
  @Test
  void listsEveryKnownMajorAndTargetWithTheReleaseRecordsVerdict() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    LinkContext ctx =
        LinkContext.of(
            Map.of(),
            Path.of("/"),
            java.io.InputStream.nullInputStream(),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            LinkScope.withUmask(022));
    assertEquals(
        0, OfflinkMain.run(new String[] {"gcc-support"}, ctx, new JvmFacts("", "", ""), ""));
    List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();

    assertEquals(GccRelease.knownMajors().size() * OffloadTarget.values().length, lines.size());
    assertTrue(lines.contains("12 nvptx-none supported"), lines.toString());
    assertTrue(lines.contains("12 amdgcn-amdhsa supported"), lines.toString());
    assertTrue(lines.contains("14 amdgcn-amdhsa supported"), lines.toString());
    for (String line : lines) {
      String[] words = line.split(" ", 3);
      GccRelease release = GccRelease.of(Integer.parseInt(words[0]));
      OffloadTarget target = OffloadTarget.byTriplet(words[1]).orElseThrow();
      String expected = release.refusal(target).map(why -> "refused: " + why).orElse("supported");
      assertEquals(expected, words[2], line);
    }
  }
}
