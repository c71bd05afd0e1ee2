package org.offlink.bridge.nvptx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stand-in's record as {@code real-ld} writes it (a truncated one is refused), the command-line
 * reading of {@link NvptxLinker.Arguments}, and {@link PtxArchives}: an archive is used only once
 * read, and only while its file is unchanged.
 */
class NvptxLinkerStandInTest {
  @TempDir Path dir;

  private static byte[] record(Object... parts) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    for (Object p : parts) {
      byte[] bytes = p instanceof byte[] raw ? raw : p.toString().getBytes(StandardCharsets.UTF_8);
      b.writeBytes(bytes);
      if (!(p instanceof byte[])) {
        b.write(0);
      }
    }
    return b.toByteArray();
  }

  @Test
  void aRecordGivesTheArgumentsAndFilesAndEveryTruncationIsRefused() throws Exception {
    byte[] r = record("real-ld", 3, "-o", "x.ptx", "in.o", 3, 2, new byte[] {'h', 'i'});
    NvptxLinkerStandIn.Recorded read = NvptxLinkerStandIn.Recorded.read(r);
    assertEquals(List.of("-o", "x.ptx", "in.o"), read.args());
    assertArrayEquals(new byte[] {'h', 'i'}, read.files().get("in.o"));
    assertEquals(1, read.files().size());
    // Cut anywhere, the record is refused, except right after the arguments: a record of no
    // files, which real-ld writes too when none of its arguments is a file (and a real-ld that
    // could not write the rest exits 1, so that its record is never read).
    int argsEnd = record("real-ld", 3, "-o", "x.ptx", "in.o").length;
    for (int cut = 1; cut < r.length; cut++) {
      byte[] part = Arrays.copyOf(r, cut);
      if (cut == argsEnd) {
        assertEquals(0, NvptxLinkerStandIn.Recorded.read(part).files().size());
        continue;
      }
      assertThrows(
          NvptxLinker.Unsupported.class,
          () -> NvptxLinkerStandIn.Recorded.read(part),
          "a record cut at " + cut);
    }
    assertThrows(
        NvptxLinker.Unsupported.class, () -> NvptxLinkerStandIn.Recorded.read(record("other", 0)));
    assertThrows(
        NvptxLinker.Unsupported.class,
        () -> NvptxLinkerStandIn.Recorded.read(record("real-ld", 1, "a", 2, 0)));
  }

  @Test
  void argumentsAreReadAsGetoptReadsThem() throws Exception {
    NvptxLinker.Arguments a =
        NvptxLinker.Arguments.parse(
            List.of(
                "x.o", "-L", "/a", "-L/a", "-lgcc", "-o", "out", "-l", "c", "-L/b", "-lgcc", "--",
                "-lm"));
    assertEquals("out", a.output());
    assertEquals(List.of("/a", "/b"), a.libraryPaths());
    assertEquals(List.of("c", "gcc"), a.libraries());
    assertEquals(List.of("x.o", "-lm"), a.inputs());
    assertEquals("a.out", NvptxLinker.Arguments.parse(List.of("x.o")).output());
    for (List<String> bad :
        List.of(List.of("-o", "a", "-o", "b"), List.of("-o"), List.of("-v"), List.of("--help"))) {
      assertThrows(NvptxLinker.Unsupported.class, () -> NvptxLinker.Arguments.parse(bad), "" + bad);
    }
  }

  @Test
  void anArchiveIsUsedOnceReadAndOnlyWhileItsFileIsUnchanged() throws Exception {
    Path lib = dir.resolve("libx.a");
    Files.write(lib, archiveOf("x\n// BEGIN GLOBAL FUNCTION DEF: f\n"));
    PtxArchives archives = PtxArchives.resident();
    assertTrue(archives.isEmpty());
    for (Path f : List.of(dir.resolve("libmissing.a"), lib)) {
      archives.get(f, NvptxLdVersion.TOOLS_2022);
    }
    assertFalse(archives.isEmpty(), "being read");
    assertFalse(
        archives.get(lib, NvptxLdVersion.TOOLS_2022).isPresent(),
        "not read yet: read on a thread of its own");
    PtxArchive read = waitFor(archives, lib);
    assertEquals(1, read.size());
    assertEquals(List.of("f"), List.of(read.markers()[0].names()));
    Files.setLastModifiedTime(lib, FileTime.from(Instant.parse("2020-01-01T00:00:00Z")));
    assertFalse(
        archives.get(lib, NvptxLdVersion.TOOLS_2022).isPresent(), "a changed file is read again");
    waitFor(archives, lib);
    assertFalse(PtxArchives.NONE.get(lib, NvptxLdVersion.TOOLS_2022).isPresent());
    assertFalse(PtxArchives.NONE.enabled());
    assertTrue(archives.enabled());
  }

  @Test
  void eachLinkerVersionHasItsOwnReadingOfAnArchive() throws Exception {
    Path lib = dir.resolve("libv.a");
    // A marker line cut off at the member's end: 0.20220610 takes the name to the end, later
    // versions stop with an error.
    byte[] archive = archiveOf("x\n// BEGIN GLOBAL FUNCTION DEF: f");
    Files.write(lib, archive);
    assertEquals(1, PtxArchive.parse(lib, archive, NvptxLdVersion.TOOLS_2022).size());
    assertThrows(
        NvptxLinker.Unsupported.class,
        () -> PtxArchive.parse(lib, archive, NvptxLdVersion.TOOLS_2024));
    PtxArchives archives = PtxArchives.resident();
    archives.get(lib, NvptxLdVersion.TOOLS_2024);
    archives.get(lib, NvptxLdVersion.TOOLS_2022);
    waitFor(archives, lib);
    Thread.sleep(2 * PtxArchives.READ_DELAY_MS);
    assertFalse(archives.get(lib, NvptxLdVersion.TOOLS_2024).isPresent(), "2024 rejects it");
    // Only an empty archive's magic: an archive of nothing from 0.20240810 on.
    byte[] empty = "!<arch>\n".getBytes(StandardCharsets.US_ASCII);
    assertEquals(0, PtxArchive.parse(lib, empty, NvptxLdVersion.TOOLS_2024).size());
    assertThrows(
        NvptxLinker.Unsupported.class,
        () -> PtxArchive.parse(lib, empty, NvptxLdVersion.TOOLS_2022));
  }

  @Test
  void aLinkerIsIdentifiedOnceWhileItsFileIsTheSame() throws Exception {
    Path ld = Files.writeString(dir.resolve("ld"), "a linker");
    PtxArchives archives = PtxArchives.resident();
    int[] asked = {0};
    PtxArchives.LinkerCheck check =
        real -> {
          asked[0]++;
          return java.util.Optional.of(NvptxLdVersion.TOOLS_2024);
        };
    assertEquals(java.util.Optional.of(NvptxLdVersion.TOOLS_2024), archives.linker(ld, check));
    archives.linker(ld, check);
    assertEquals(1, asked[0], "identified once");
    Files.setLastModifiedTime(ld, FileTime.from(Instant.parse("2020-01-01T00:00:00Z")));
    archives.linker(ld, check);
    assertEquals(2, asked[0], "a changed file is identified again");
    assertEquals(java.util.Optional.empty(), NvptxLinkerStandIn.knownLinker(ld));
  }

  @Test
  void aFirstLinkLeavesIdentifyingTheLinkerAndReadingToTheReaderThread() throws Exception {
    Path lib = dir.resolve("libq.a");
    Files.write(lib, archiveOf("x\n// BEGIN GLOBAL FUNCTION DEF: f\n"));
    Path ld = Files.writeString(dir.resolve("ld"), "a linker");
    Thread caller = Thread.currentThread();
    Thread[] identifiedOn = {null};
    PtxArchives archives = PtxArchives.resident();
    archives.prefetch(
        ld,
        real -> {
          identifiedOn[0] = Thread.currentThread();
          return java.util.Optional.of(NvptxLdVersion.TOOLS_2024);
        },
        List.of(dir.resolve("libmissing.a"), lib));
    assertFalse(archives.isEmpty(), "to be read: the next link takes the stand-in");
    for (int i = 0; i < 500 && !archives.get(lib, NvptxLdVersion.TOOLS_2024).isPresent(); i++) {
      Thread.sleep(10);
    }
    assertTrue(archives.get(lib, NvptxLdVersion.TOOLS_2024).isPresent(), "read by 2024's rules");
    assertTrue(identifiedOn[0] != null && identifiedOn[0] != caller, "off the link's thread");
    // An unknown linker: nothing is read for it.
    PtxArchives other = PtxArchives.resident();
    other.prefetch(ld, real -> java.util.Optional.empty(), List.of(lib));
    Thread.sleep(PtxArchives.READ_DELAY_MS + 300);
    assertFalse(other.get(lib, NvptxLdVersion.TOOLS_2024).isPresent());
  }

  @Test
  void debian13KeepsTheLibrariesApartFromThePrograms() {
    assertEquals(
        List.of(
            Path.of("/usr/libexec/gcc/x86_64-linux-gnu/14/accel/nvptx-none"),
            Path.of("/usr/lib/gcc/x86_64-linux-gnu/14/accel/nvptx-none")),
        NvptxLinkerStandIn.libraryFolders(
            Path.of("/usr/libexec/gcc/x86_64-linux-gnu/14/accel/nvptx-none")));
    assertEquals(
        List.of(Path.of("/usr/lib/gcc/x86_64-linux-gnu/12/accel/nvptx-none")),
        NvptxLinkerStandIn.libraryFolders(
            Path.of("/usr/lib/gcc/x86_64-linux-gnu/12/accel/nvptx-none")));
  }

  /** An archive of one member with {@code text}, as ar writes it (padded to an even size). */
  private static byte[] archiveOf(String text) {
    byte[] member = text.getBytes(StandardCharsets.US_ASCII);
    String header =
        String.format(
            "%-16s%-12s%-6s%-6s%-8s%-10s`\n", "x.o/", "0", "0", "0", "644", member.length);
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    b.writeBytes("!<arch>\n".getBytes(StandardCharsets.US_ASCII));
    b.writeBytes(header.getBytes(StandardCharsets.US_ASCII));
    b.writeBytes(member);
    if (member.length % 2 == 1) {
      b.write('\n');
    }
    return b.toByteArray();
  }

  private static PtxArchive waitFor(PtxArchives archives, Path lib) throws InterruptedException {
    for (int i = 0; i < 500; i++) {
      var got = archives.get(lib, NvptxLdVersion.TOOLS_2022);
      if (got.isPresent()) {
        return got.get();
      }
      Thread.sleep(10);
    }
    throw new AssertionError("the archive was never read");
  }
}
