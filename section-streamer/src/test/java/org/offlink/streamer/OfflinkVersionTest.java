package org.offlink.streamer;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
}
