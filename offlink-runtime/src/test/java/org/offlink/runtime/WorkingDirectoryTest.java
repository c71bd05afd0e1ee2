package org.offlink.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class WorkingDirectoryTest {
  private static final Path PROCESS = Path.of("").toAbsolutePath();

  @BeforeAll
  static void toldByTheProcessEdge() {
    WorkingDirectory.useProcessDirectory(PROCESS);
  }

  @AfterAll
  static void forgotten() {
    WorkingDirectory.useProcessDirectory(null);
  }

  @Test
  void untoldTheProcesssDirectoryIsLikeAnyOther() {
    WorkingDirectory.useProcessDirectory(null);
    try {
      assertEquals(PROCESS.resolve("a.o"), WorkingDirectory.resolve(PROCESS, "a.o"));
    } finally {
      WorkingDirectory.useProcessDirectory(PROCESS);
    }
  }

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
