package org.offlink.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NamedFilesTest {
  @TempDir Path dir;

  private final LinkScope scope = LinkScope.withUmask(022);

  @Test
  void writesTheBytes() throws IOException {
    Path f = dir.resolve("a.s");
    NamedFiles.write(scope, f, new byte[] {1, 2, 3});
    assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(f));
  }

  /** /dev/full opens and then fails every write with ENOSPC, as a full TMPDIR does. */
  @Test
  void aFullDeviceIsNamedInTheError() {
    Path full = Path.of("/dev/full");
    FileSystemException e =
        assertThrows(
            FileSystemException.class, () -> NamedFiles.write(scope, full, new byte[4096]));
    assertEquals("/dev/full", e.getFile());
    assertEquals("/dev/full: No space left on device", e.getMessage());
  }

  /**
   * A file the scope made and its cancel removed is not made again by a write that comes after the
   * cancel (the link's thread goes on until it notices): it stays gone, and the write fails.
   */
  @Test
  void aWriteAfterTheCancelMakesNothing() throws IOException {
    Path f = TempDirectory.createFile(scope, dir, ".2.s");
    scope.cancel();
    assertFalse(Files.exists(f), "the cancel's sweep");
    IOException e = assertThrows(IOException.class, () -> NamedFiles.write(scope, f, new byte[1]));
    assertEquals(f + ": interrupted", e.getMessage());
    assertFalse(Files.exists(f));
  }

  @Test
  void anErrorThatNamesItsFileIsKept() {
    FileSystemException own = new FileSystemException("/x", null, "gone");
    assertEquals(own, NamedFiles.naming(Path.of("/y"), own));
  }
}
