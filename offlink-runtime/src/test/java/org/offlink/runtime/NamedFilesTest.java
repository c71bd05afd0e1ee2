package org.offlink.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NamedFilesTest {
  @TempDir Path dir;

  @Test
  void writesTheBytes() throws IOException {
    Path f = dir.resolve("a.s");
    NamedFiles.write(f, new byte[] {1, 2, 3});
    assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(f));
  }

  /** /dev/full opens and then fails every write with ENOSPC, as a full TMPDIR does. */
  @Test
  void aFullDeviceIsNamedInTheError() {
    Path full = Path.of("/dev/full");
    FileSystemException e =
        assertThrows(FileSystemException.class, () -> NamedFiles.write(full, new byte[4096]));
    assertEquals("/dev/full", e.getFile());
    assertEquals("/dev/full: No space left on device", e.getMessage());
  }

  @Test
  void anErrorThatNamesItsFileIsKept() {
    FileSystemException own = new FileSystemException("/x", null, "gone");
    assertEquals(own, NamedFiles.naming(Path.of("/y"), own));
  }
}
