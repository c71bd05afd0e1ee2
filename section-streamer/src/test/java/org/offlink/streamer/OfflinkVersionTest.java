package org.offlink.streamer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class OfflinkVersionTest {
  @Test
  void versionIsTheRootPomsWithoutSnapshot() throws Exception {
    String pom = Files.readString(Path.of("..", "pom.xml"));
    Matcher m =
        Pattern.compile("<artifactId>offlink-parent</artifactId>\\s*<version>([^<]+)</version>")
            .matcher(pom);
    assertTrue(m.find(), "root pom version");
    assertEquals(m.group(1).replace("-SNAPSHOT", ""), OfflinkVersion.number());
  }

  @Test
  void releaseVersionsPrintAsTheyAreAndAnUnfilteredSourceIsRefused() {
    assertEquals("1.2.0", OfflinkVersion.number("1.2.0"));
    assertEquals("1.2.0", OfflinkVersion.number("1.2.0-SNAPSHOT"));
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class, () -> OfflinkVersion.number("${project.version}"));
    assertTrue(e.getMessage().contains("not filtered"), e.getMessage());
  }
}
