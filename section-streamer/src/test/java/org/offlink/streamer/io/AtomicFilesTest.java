package org.offlink.streamer.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFilesTest {
  @TempDir Path dir;

  private List<Path> listing() throws IOException {
    try (var files = Files.list(dir)) {
      return files.sorted().toList();
    }
  }

  @Test
  void writesTheBytesAndLeavesNothingElse() throws IOException {
    Path out = dir.resolve("x.o");
    AtomicFiles.write(out, new byte[] {1, 2, 3});
    AtomicFiles.write(out, new byte[] {4, 5});
    assertArrayEquals(new byte[] {4, 5}, Files.readAllBytes(out));
    assertEquals(List.of(out), listing());
  }

  @Test
  void aFailingWriterKeepsTheOldFileAndLeavesNoTemporary() throws IOException {
    Path out = dir.resolve("x.o");
    Files.write(out, new byte[] {9});
    IOException e =
        assertThrows(
            IOException.class,
            () ->
                AtomicFiles.write(
                    out,
                    o -> {
                      o.write(new byte[1000]);
                      throw new IOException("disk full");
                    }));
    assertEquals("disk full", e.getMessage());
    assertArrayEquals(new byte[] {9}, Files.readAllBytes(out));
    assertEquals(List.of(out), listing());
  }

  @Test
  void aReplacedFileKeepsItsModeAndANewOneGetsTheUmasksMode() throws IOException {
    Path kept = dir.resolve("kept");
    Files.write(kept, new byte[] {1});
    Files.setPosixFilePermissions(kept, PosixFilePermissions.fromString("rwxr-x---"));
    AtomicFiles.write(kept, new byte[] {2});
    assertEquals("rwxr-x---", PosixFilePermissions.toString(Files.getPosixFilePermissions(kept)));

    Path plain = Files.createFile(dir.resolve("plain")); // what this process's umask gives
    Path fresh = dir.resolve("fresh");
    AtomicFiles.write(fresh, new byte[] {3});
    assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(fresh));
  }

  @Test
  void aMissingDirectoryIsAnErrorNamingThePath() {
    Path out = dir.resolve("missing").resolve("x.o");
    IOException e = assertThrows(IOException.class, () -> AtomicFiles.write(out, new byte[1]));
    assertTrue(e.getMessage().contains(dir.resolve("missing").toString()), e.getMessage());
    // The file the user asked for, not the internal .x.o.XXXXXX.tmp beside it.
    assertTrue(e.getMessage().startsWith(out + ": "), e.getMessage());
    assertFalse(e.getMessage().contains(".tmp"), e.getMessage());
  }

  @Test
  void aRelativeTargetStaysRelative() throws IOException {
    // The temporary file is created beside a relative target without making it absolute, so that
    // a working directory near PATH_MAX works. Checked here through the error path: the message
    // names the relative target as given.
    Path out = Path.of("no-such-dir-" + TempNames.random(6), "z.o");
    IOException e = assertThrows(IOException.class, () -> AtomicFiles.write(out, new byte[1]));
    assertTrue(e.getMessage().startsWith(out + ": "), e.getMessage());
  }

  @Test
  void tempNamesAreLettersAndDigitsAndVary() {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < 200; i++) {
      String name = TempNames.random(6);
      assertTrue(name.matches("[A-Za-z0-9]{6}"), name);
      seen.add(name);
    }
    assertTrue(seen.size() > 190, "too many repeats: " + seen.size());
  }
}
