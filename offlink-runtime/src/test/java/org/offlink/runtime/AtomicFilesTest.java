package org.offlink.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFilesTest {
  @TempDir Path dir;

  private final LinkScope scope = LinkScope.withUmask(022);

  private List<Path> listing() throws IOException {
    try (var files = Files.list(dir)) {
      return files.sorted().toList();
    }
  }

  /**
   * A write that fails (here: /dev/full, always "No space left on device") names the file: the
   * JDK's own exception names none (issue 27; a full TMPDIR is the same failure on the temporary
   * name, reported against the target).
   */
  @Test
  void aWriteErrorNamesTheFile() {
    Path full = Path.of("/dev/full");
    Assumptions.assumeTrue(Files.exists(full), "no /dev/full on this system");
    java.nio.file.FileSystemException e =
        assertThrows(
            java.nio.file.FileSystemException.class,
            () -> AtomicFiles.write(scope, full, new byte[1 << 20]));
    assertEquals("/dev/full", e.getFile());
    assertEquals("/dev/full: no space left on device", ErrorText.of(e));
  }

  @Test
  void writesTheBytesAndLeavesNothingElse() throws IOException {
    Path out = dir.resolve("x.o");
    AtomicFiles.write(scope, out, new byte[] {1, 2, 3});
    AtomicFiles.write(scope, out, new byte[] {4, 5});
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
                    scope,
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
    AtomicFiles.write(scope, kept, new byte[] {2});
    assertEquals("rwxr-x---", PosixFilePermissions.toString(Files.getPosixFilePermissions(kept)));

    Path plain = Files.createFile(dir.resolve("plain")); // what this process's umask gives
    Path fresh = dir.resolve("fresh");
    AtomicFiles.write(scope, fresh, new byte[] {3});
    assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(fresh));
  }

  @Test
  void aMissingDirectoryIsAnErrorNamingThePath() {
    Path out = dir.resolve("missing").resolve("x.o");
    IOException e =
        assertThrows(IOException.class, () -> AtomicFiles.write(scope, out, new byte[1]));
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
    IOException e =
        assertThrows(IOException.class, () -> AtomicFiles.write(scope, out, new byte[1]));
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

  private static void run(String... argv) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(argv).inheritIO().start();
    assertEquals(0, p.waitFor(), String.join(" ", argv));
  }

  private static PosixFileAttributes noFollow(Path p) throws IOException {
    return Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
  }

  @Test
  void theTemporaryIsPrivateWhileItIsWritten() throws IOException {
    Path out = dir.resolve("x.o");
    Set<String> modes = new HashSet<>();
    AtomicFiles.write(
        scope,
        out,
        o -> {
          try (var files = Files.list(dir)) {
            for (Path p : files.toList()) {
              modes.add(
                  p.getFileName()
                      + " "
                      + PosixFilePermissions.toString(Files.getPosixFilePermissions(p)));
            }
          }
          o.write(1);
        });
    assertEquals(1, modes.size(), modes.toString());
    String only = modes.iterator().next();
    assertTrue(only.matches("\\.x\\.o\\.[A-Za-z0-9]{6}\\.tmp rw-------"), only);
  }

  @Test
  void aFifoIsWrittenThroughAndStaysAFifo() throws Exception {
    Path fifo = dir.resolve("pipe");
    run("mkfifo", fifo.toString());
    CompletableFuture<byte[]> read =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return Files.readAllBytes(fifo);
              } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
            });
    AtomicFiles.write(scope, fifo, new byte[] {7, 8, 9});
    assertTrue(noFollow(fifo).isOther(), "no longer a FIFO");
    assertArrayEquals(new byte[] {7, 8, 9}, read.get(10, TimeUnit.SECONDS));
    assertEquals(List.of(fifo), listing());
  }

  @Test
  void aCharacterDeviceIsWrittenThroughAndStaysADevice() throws Exception {
    // mknod needs root; /dev/null itself is never the target (an unfixed writer would replace it).
    Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "mknod needs root");
    Path dev = dir.resolve("null");
    run("mknod", "-m", "666", dev.toString(), "c", "1", "3");
    AtomicFiles.write(scope, dev, new byte[] {1, 2});
    assertTrue(noFollow(dev).isOther(), "no longer a device");
    assertEquals(List.of(dev), listing());
  }

  @Test
  void aSymlinkIsFollowedAndItsRegularTargetReplaced() throws IOException {
    Path real = dir.resolve("real.o");
    Files.write(real, new byte[] {1});
    Files.setPosixFilePermissions(real, PosixFilePermissions.fromString("rw-r-----"));
    Path link = Files.createSymbolicLink(dir.resolve("link.o"), Path.of("real.o"));
    AtomicFiles.write(scope, link, new byte[] {2, 3});
    assertTrue(Files.isSymbolicLink(link), "the link was replaced");
    assertArrayEquals(new byte[] {2, 3}, Files.readAllBytes(real));
    assertEquals("rw-r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(real)));
    assertEquals(List.of(link, real), listing());
  }

  @Test
  void aDanglingSymlinkGetsItsTargetCreatedAsFopenWould() throws IOException {
    Path link = Files.createSymbolicLink(dir.resolve("link.o"), Path.of("new.o"));
    AtomicFiles.write(scope, link, new byte[] {4});
    assertTrue(Files.isSymbolicLink(link));
    assertArrayEquals(new byte[] {4}, Files.readAllBytes(dir.resolve("new.o")));
  }

  @Test
  void aSymlinkLoopIsAnErrorNamingThePath() throws IOException {
    Path a = dir.resolve("a");
    Files.createSymbolicLink(a, Path.of("b"));
    Files.createSymbolicLink(dir.resolve("b"), Path.of("a"));
    IOException e = assertThrows(IOException.class, () -> AtomicFiles.write(scope, a, new byte[1]));
    assertTrue(e.getMessage().contains(a.toString()), e.getMessage());
    assertTrue(e.getMessage().contains("Too many levels of symbolic links"), e.getMessage());
  }

  @Test
  void anUnwritableDirectoryIsAnErrorNamingTheOutputNotTheTemporary() throws IOException {
    Path out = dir.resolve("x.o");
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("r-x------"));
    try {
      Assumptions.assumeFalse(Files.isWritable(dir), "root writes anywhere");
      IOException e =
          assertThrows(IOException.class, () -> AtomicFiles.write(scope, out, new byte[1]));
      assertEquals(out + ": Permission denied", e.getMessage());
    } finally {
      Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
    }
  }

  @Test
  void aLinkCancelledDuringTheWriteRemovesTheTemporaryAndPublishesNothing() throws IOException {
    Path out = dir.resolve("x.o");
    List<Path> seen = new java.util.ArrayList<>();
    IOException e =
        assertThrows(
            IOException.class,
            () ->
                AtomicFiles.write(
                    scope,
                    out,
                    o -> {
                      try (var files = Files.list(dir)) {
                        files.forEach(seen::add);
                      }
                      scope.cancel(); // the sweep finds the temporary: it was tracked
                      assertFalse(Files.exists(seen.get(0)), "the cancel removed the temporary");
                    }));
    assertEquals(1, seen.size(), seen.toString());
    assertTrue(e.getMessage().endsWith("interrupted"), e.getMessage());
    assertEquals(List.of(), listing(), "neither the temporary nor the output");
  }

  @Test
  void aNewFileGetsTheModeOfTheLinksUmask() throws IOException {
    Path out = dir.resolve("x.o");
    AtomicFiles.write(LinkScope.withUmask(027), out, new byte[] {1});
    assertEquals("rw-r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(out)));
  }

  @Test
  void umaskIsReadFromProcStatusWithTheUsualDefault() throws IOException {
    Path status = dir.resolve("status");
    Files.writeString(status, "Name:\tjava\nUmask:\t0027\nState:\tR\n");
    assertEquals(027, Umask.read(status));
    assertEquals(022, Umask.read(dir.resolve("absent")));
    Files.writeString(status, "Umask:\t0077\nName:\tjava\n");
    assertEquals(077, Umask.read(status), "the first line");
    Files.writeString(status, "NotUmask:\t0077\nUmask:\t0002\n");
    assertEquals(02, Umask.read(status), "a line that only ends in Umask:");
    Files.writeString(status, "Umask:\tnone\n");
    assertEquals(022, Umask.read(status));
    String shell =
        new String(
                new ProcessBuilder("sh", "-c", "umask").start().getInputStream().readAllBytes(),
                java.nio.charset.StandardCharsets.US_ASCII)
            .strip();
    assertEquals(
        Integer.parseInt(shell, 8), Umask.read(Path.of("/proc/self/status")), "this process's");
    assertEquals("rw-r-----", PosixFilePermissions.toString(Umask.permissions(0666 & ~027)));
  }
}
