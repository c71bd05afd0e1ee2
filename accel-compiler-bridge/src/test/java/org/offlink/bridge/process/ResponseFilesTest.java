package org.offlink.bridge.process;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class ResponseFilesTest {
  @Test
  void quotesLikeWriteargv() {
    assertEquals("plain", ResponseFiles.quote("plain"));
    assertEquals("\"\"", ResponseFiles.quote(""));
    assertEquals("a\\ b", ResponseFiles.quote("a b"));
    assertEquals("a\\\tb\\\nc", ResponseFiles.quote("a\tb\nc"));
    assertEquals("\\\\\\'\\\"", ResponseFiles.quote("\\'\""));
    assertEquals("-Wl,x=$y", ResponseFiles.quote("-Wl,x=$y"));
  }

  @Test
  void oneArgumentPerLine() {
    assertEquals(
        "-dumpdir\n\"\"\n-o\n./x.xnvptx-none.mkoffload\n",
        ResponseFiles.format(List.of("-dumpdir", "", "-o", "./x.xnvptx-none.mkoffload")));
  }
}
