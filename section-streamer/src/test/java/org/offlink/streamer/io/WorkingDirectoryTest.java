package org.offlink.streamer.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class WorkingDirectoryTest {
  private static final Path PROCESS = Path.of("").toAbsolutePath();

  @Test
  void aNameUnderTheProcesssOwnDirectoryStaysRelativeAsGccWritesIt() {
    assertEquals(Path.of("./a.ltrans_args"), WorkingDirectory.resolve(PROCESS, "./a.ltrans_args"));
    assertEquals(Path.of("sub/a.o"), WorkingDirectory.resolve(PROCESS, Path.of("sub/a.o")));
    assertFalse(WorkingDirectory.resolve(PROCESS, "a.o").isAbsolute());
  }

  @Test
  void theEmptyPathCountsAsTheProcesssDirectory() {
    assertEquals(Path.of("a.o"), WorkingDirectory.resolve(Path.of(""), "a.o"));
  }

  @Test
  void anotherDirectoryIsStillPrefixed() {
    assertEquals(Path.of("/elsewhere/a.o"), WorkingDirectory.resolve(Path.of("/elsewhere"), "a.o"));
    assertTrue(WorkingDirectory.resolve(PROCESS.resolve("sub"), "a.o").isAbsolute());
  }

  @Test
  void anAbsoluteNameIsKept() {
    assertEquals(Path.of("/x/a.o"), WorkingDirectory.resolve(PROCESS, "/x/a.o"));
    assertEquals(Path.of("/x/a.o"), WorkingDirectory.resolve(Path.of("/elsewhere"), "/x/a.o"));
  }
}
