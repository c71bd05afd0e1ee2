package org.offlink.streamer.ar;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.commons.compress.archivers.ar.ArArchiveEntry;
import org.apache.commons.compress.archivers.ar.ArArchiveInputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.streamer.testing.Toolchain;

class ArchiveReaderTest {
  private static final String LONG = "a_member_name_longer_than_15.o";

  @TempDir Path dir;
  private Path longObj;
  private Path shortObj;

  @BeforeEach
  void compileObjects() throws Exception {
    Toolchain.write(dir, "long.c", "int long_fn(void) { return 1; }\n");
    Toolchain.write(
        dir, "s.c", "int short_fn(void) { return 2; }\nint other_fn(void) { return 3; }\n");
    Toolchain.stdout(dir, "gcc-12", "-c", "long.c", "-o", LONG);
    Toolchain.stdout(dir, "gcc-12", "-c", "s.c", "-o", "s.o");
    longObj = dir.resolve(LONG);
    shortObj = dir.resolve("s.o");
  }

  @Test
  void gnuArchiveFromArHasExactDataOffsetsAndSymbols() throws Exception {
    Toolchain.stdout(dir, "ar", "rcs", "libg.a", LONG, "s.o");
    Archive a = ArchiveReader.read(dir.resolve("libg.a"));

    assertEquals(ArchiveKind.GNU, a.kind());
    assertEquals(List.of(LONG, "s.o"), names(a));
    assertMemberBytes(a, 0, longObj);
    assertMemberBytes(a, 1, shortObj);
    assertSymbol(a, "long_fn", LONG);
    assertSymbol(a, "short_fn", "s.o");
    assertSymbol(a, "other_fn", "s.o");
    assertEquals(commonsCompressView(a.path()), ourView(a));
  }

  @Test
  void thinArchiveMembersResolveAgainstTheArchiveDirectory() throws Exception {
    Files.createDirectories(dir.resolve("sub"));
    Toolchain.stdout(dir, "ar", "rcT", "sub/libt.a", LONG, "s.o");
    Path archive = Path.of("sub/libt.a");
    Archive a = ArchiveReader.read(dir.resolve(archive));

    assertEquals(ArchiveKind.THIN, a.kind());
    assertEquals(
        List.of(LONG, "s.o"),
        names(a).stream().map(n -> Path.of(n).getFileName().toString()).toList());
    ArchiveMember m = a.members().get(0);
    assertEquals(Optional.of(dir.resolve("sub").resolve("../" + LONG)), m.externalFile());
    assertEquals(0, m.dataOffset());
    assertEquals(Files.size(longObj), m.size());
    assertEquals(dir.resolve("sub/../" + LONG).toString(), a.specOf(m).toString());
    assertSymbol(a, "short_fn", "../s.o");
  }

  @Test
  void bsdArchiveFromLlvmAr() throws Exception {
    Toolchain.stdout(dir, "llvm-ar-13", "--format=bsd", "rcs", "libb.a", LONG, "s.o");
    Archive a = ArchiveReader.read(dir.resolve("libb.a"));

    assertEquals(ArchiveKind.BSD, a.kind());
    assertEquals(List.of(LONG, "s.o"), names(a));
    assertMemberBytes(a, 0, longObj);
    assertMemberBytes(a, 1, shortObj);
    assertSymbol(a, "long_fn", LONG);
    assertSymbol(a, "other_fn", "s.o");
    assertEquals(commonsCompressView(a.path()), ourView(a));
  }

  @Test
  void bsdArchiveBuiltInCodeSkipsInlineNamesAndReadsSymdef() throws Exception {
    Map<String, byte[]> members = new LinkedHashMap<>();
    members.put("short.o", new byte[] {1, 2, 3});
    members.put("a_rather_long_member_name.o", new byte[] {4, 5, 6, 7, 8});
    Path file = Files.write(dir.resolve("gen.a"), ArFixtures.bsd(members));
    Archive a = ArchiveReader.read(file);

    assertEquals(ArchiveKind.BSD, a.kind());
    assertEquals(List.copyOf(members.keySet()), names(a));
    assertArrayEquals(new byte[] {4, 5, 6, 7, 8}, bytesOf(a, a.members().get(1)));
    assertEquals(
        "a_rather_long_member_name.o",
        memberAtHeader(a, a.symbols().get(1).memberHeaderOffset()).orElseThrow().name());
    assertEquals("sym_1", a.symbols().get(1).name());
  }

  @Test
  void thousandMemberArchiveIsReadQuickly() throws Exception {
    Map<String, byte[]> members = ArFixtures.manyMembers(1000);
    Path file = Files.write(dir.resolve("many.a"), ArFixtures.gnu(members));
    ArchiveReader.read(file); // warm up class loading
    long start = System.nanoTime();
    Archive a = ArchiveReader.read(file);
    long millis = (System.nanoTime() - start) / 1_000_000;

    assertEquals(1000, a.members().size());
    assertEquals("member_with_a_long_name_999.o", a.members().get(999).name());
    assertArrayEquals(
        members.get("member_with_a_long_name_999.o"), bytesOf(a, a.members().get(999)));
    assertTrue(millis < 500, "reading 1000 members took " + millis + " ms");
  }

  @Test
  void isArchiveChecksTheMagic() throws Exception {
    Toolchain.stdout(dir, "ar", "rcs", "libg.a", "s.o");
    Toolchain.stdout(dir, "ar", "rcT", "libt.a", "s.o");
    assertTrue(ArchiveReader.isArchive(dir.resolve("libg.a")));
    assertTrue(ArchiveReader.isArchive(dir.resolve("libt.a")));
    assertFalse(ArchiveReader.isArchive(shortObj));
  }

  private static List<String> names(Archive a) {
    return a.members().stream().map(ArchiveMember::name).toList();
  }

  private static void assertMemberBytes(Archive a, int index, Path original) throws IOException {
    assertArrayEquals(Files.readAllBytes(original), bytesOf(a, a.members().get(index)));
  }

  private static byte[] bytesOf(Archive a, ArchiveMember m) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(a.path().toFile(), "r")) {
      byte[] b = new byte[(int) m.size()];
      f.seek(m.dataOffset());
      f.readFully(b);
      return b;
    }
  }

  /** The member whose header starts at {@code headerOffset} (how symbol tables refer to it). */
  private static java.util.Optional<ArchiveMember> memberAtHeader(Archive a, long headerOffset) {
    return a.members().stream().filter(m -> m.headerOffset() == headerOffset).findFirst();
  }

  private static void assertSymbol(Archive a, String symbol, String memberName) {
    ArchiveSymbol s =
        a.symbols().stream().filter(x -> x.name().equals(symbol)).findFirst().orElseThrow();
    assertEquals(memberName, memberAtHeader(a, s.memberHeaderOffset()).orElseThrow().name());
  }

  /** Names and sizes as Commons Compress sees them, symbol tables dropped. */
  private static List<String> commonsCompressView(Path archive) throws IOException {
    List<String> view = new ArrayList<>();
    try (InputStream in = Files.newInputStream(archive);
        ArArchiveInputStream ar = new ArArchiveInputStream(in)) {
      ArArchiveEntry e;
      while ((e = ar.getNextEntry()) != null) {
        if (!e.getName().isEmpty() && !e.getName().startsWith("__.SYMDEF")) {
          // Commons Compress keeps the NUL padding of BSD inline names; the linker does not.
          view.add(e.getName().replaceAll("\0+$", "") + ":" + e.getLength());
        }
      }
    }
    return view;
  }

  private static List<String> ourView(Archive a) {
    return a.members().stream().map(m -> m.name() + ":" + m.size()).toList();
  }
}
