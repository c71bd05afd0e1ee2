package org.offlink.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The nvptx linker stand-in {@code real-ld} (src/main/c/realld.c, the sanitized build): it writes
 * its command line and the contents of the regular files it names in the documented format, passes
 * over what is not a regular file (a FIFO must not block it), and without its variable fails with
 * one line.
 */
class RealLdStandInTest {
  @TempDir Path dir;

  private record Run(int status, String stderr) {}

  private Run run(String record, String... args) throws Exception {
    List<String> argv = new java.util.ArrayList<>();
    argv.add(ClientTree.NATIVE.resolve("offlink-real-ld").toString());
    argv.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(argv).directory(dir.toFile());
    pb.environment().clear();
    pb.environment().put("PATH", "/usr/bin:/bin");
    if (record != null) {
      pb.environment().put("OFFLINK_NVPTX_LD_ARGV", record);
    }
    Process p =
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
    p.getOutputStream().close();
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "real-ld hung");
    return new Run(p.exitValue(), err);
  }

  @Test
  void writesItsArgumentsAndTheFilesTheyName() throws Exception {
    Files.writeString(dir.resolve("in.o"), "ptx\n");
    Files.write(dir.resolve("odd.o"), new byte[] {0, 1, 2});
    Files.createFile(dir.resolve("out.ptx"));
    Path fifo = dir.resolve("fifo");
    assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
    Path record = Files.createFile(dir.resolve("record"));
    Run r = run(record.toString(), "-o", "out.ptx", "in.o", "-lc", "fifo", "missing.o", "odd.o");
    assertEquals(0, r.status(), r.stderr());
    ClientTest.assertClean(r.stderr());
    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    for (String s :
        List.of(
            "real-ld",
            "7",
            "-o",
            "out.ptx",
            "in.o",
            "-lc",
            "fifo",
            "missing.o",
            "odd.o",
            "2",
            "0",
            "3",
            "4")) {
      expected.write(s.getBytes(StandardCharsets.US_ASCII));
      expected.write(0);
    }
    expected.write("ptx\n".getBytes(StandardCharsets.US_ASCII));
    for (String s : List.of("7", "3")) {
      expected.write(s.getBytes(StandardCharsets.US_ASCII));
      expected.write(0);
    }
    expected.write(new byte[] {0, 1, 2});
    assertArrayEquals(expected.toByteArray(), Files.readAllBytes(record));
  }

  @Test
  void runAnyOtherWayItFailsWithOneLine() throws Exception {
    Run unset = run(null, "-o", "x");
    assertEquals(1, unset.status());
    assertTrue(unset.stderr().contains("OFFLINK_NVPTX_LD_ARGV is not set"), unset.stderr());
    assertEquals(1, unset.stderr().lines().count(), unset.stderr());
    Run missing = run(dir.resolve("no/such/record").toString(), "-o", "x");
    assertEquals(1, missing.status());
    assertTrue(missing.stderr().contains("cannot open"), missing.stderr());
  }
}
