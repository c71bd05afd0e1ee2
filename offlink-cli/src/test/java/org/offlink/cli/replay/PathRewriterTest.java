package org.offlink.cli.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Where recorded paths go on replay, in each form lto-wrapper meets them. */
class PathRewriterTest {
  private final PathRewriter r =
      PathRewriter.of(
          Map.of(
              "/w", "/s/root/w",
              "/tmp/cc1.ofldlist", "/s/root/tmp/cc1.ofldlist",
              "/opt/lib/libx.a", "/s/root/opt/lib/libx.a",
              "/old/libexec/offlink", "/new/libexec/offlink"));

  @Test
  void wordsAtTheStartAfterEqualsAndBeforeAnArchiveOffset() {
    assertEquals("/s/root/w/a.o", r.word("/w/a.o"));
    assertEquals("/s/root/w", r.word("/w"));
    assertEquals(
        "-foffload-objects=/s/root/tmp/cc1.ofldlist",
        r.word("-foffload-objects=/tmp/cc1.ofldlist"));
    assertEquals("/s/root/opt/lib/libx.a@0x53c", r.word("/opt/lib/libx.a@0x53c"));
    assertEquals("/new/libexec/offlink/", r.word("/old/libexec/offlink/"));
  }

  @Test
  void keepsWhatIsNotMapped() {
    assertEquals("/wx/a.o", r.word("/wx/a.o"), "a prefix must end at a path boundary");
    assertEquals("a.o", r.word("a.o"), "relative names move with the working directory");
    assertEquals("-O2", r.word("-O2"));
    assertEquals("/usr/lib/gcc/x86_64-linux-gnu/12/", r.word("/usr/lib/gcc/x86_64-linux-gnu/12/"));
  }

  @Test
  void pathListsResolutionFilesAndOffloadLists() {
    assertEquals("/new/libexec/offlink/:/usr/lib/", r.pathList("/old/libexec/offlink/:/usr/lib/"));
    assertEquals(
        "2\n/s/root/w/a.o 1\n12 abc PREVAILING_DEF main\n/s/root/opt/lib/libx.a@0x53c 0\n",
        PathRewriter.resolution(
            "2\n/w/a.o 1\n12 abc PREVAILING_DEF main\n/opt/lib/libx.a@0x53c 0\n", r::word));
    assertEquals("2\n/s/root/w/a.o\nb.o\n", PathRewriter.lines("2\n/w/a.o\nb.o\n", r::word));
  }
}
