package org.offlink.bridge.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.bridge.process.ResponseFileExpander.ResponseFileException;

class ResponseFileExpanderTest {
  @TempDir Path dir;

  private List<String> expand(String... argv) throws ResponseFileException {
    return new ResponseFileExpander(dir).expand(List.of(argv));
  }

  @Test
  void expandsNestedFilesInPlace() throws IOException {
    Files.writeString(dir.resolve("a.rsp"), "-x @b.rsp -y");
    Files.writeString(dir.resolve("b.rsp"), "'two words'");
    assertEquals(List.of("tool", "-x", "two words", "-y", "z"), expand("tool", "@a.rsp", "z"));
  }

  @Test
  void aCharacterDeviceExpandsToNothingLikeExpandargv() throws ResponseFileException {
    // libiberty sizes the file with fseek/ftell: 0 for /dev/zero, so nothing is read. Reading it
    // to the end would never stop (and did exhaust the heap).
    assertEquals(List.of("tool", "-a"), expand("tool", "@/dev/zero", "-a"));
  }

  @Test
  void aFifoStaysVerbatim() throws Exception {
    Path fifo = dir.resolve("fifo");
    Process p = new ProcessBuilder("mkfifo", fifo.toString()).start();
    assertEquals(0, p.waitFor());
    assertEquals(List.of("tool", "@" + fifo), expand("tool", "@" + fifo));
  }

  @Test
  void aNameNoFileCanHaveStaysVerbatim() throws ResponseFileException {
    assertEquals(List.of("tool", "@a\0b"), expand("tool", "@a\0b"));
  }

  @Test
  void aHugeFileIsRejectedNamingTheLimit() throws IOException {
    Path big = dir.resolve("big.rsp");
    try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
      f.setLength(ResponseFileExpander.MAX_BYTES + 1); // sparse: no disk used
    }
    ResponseFileException e =
        assertThrows(ResponseFileException.class, () -> expand("tool", "@" + big));
    assertTrue(e.getMessage().contains("big.rsp"), e.getMessage());
    assertTrue(
        e.getMessage().contains("limit of " + ResponseFileExpander.MAX_BYTES), e.getMessage());
  }

  @Test
  void aDirectoryIsAnError() {
    ResponseFileException e = assertThrows(ResponseFileException.class, () -> expand("t", "@."));
    assertEquals("@-file refers to a directory", e.getMessage());
  }
}
