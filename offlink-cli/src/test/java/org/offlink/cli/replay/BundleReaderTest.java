package org.offlink.cli.replay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.offlink.ltowrapper.report.LinkReportWriter;
import org.offlink.ltowrapper.report.proto.ReproducerManifest;
import org.offlink.ltowrapper.reproduce.TarBundle;
import org.offlink.runtime.LinkScope;

/** Writing bundles deterministically and reading them back; hostile tars are refused. */
class BundleReaderTest {
  @TempDir Path dir;

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] manifest() {
    return LinkReportWriter.json(
        ReproducerManifest.newBuilder()
            .setSchemaVersion(1)
            .setWorkingDirectory("/w")
            .setExitStatus(1)
            .build());
  }

  @Test
  void sameEntriesGiveTheSameBytesInAnyOrder() throws IOException {
    ByteArrayOutputStream a = new ByteArrayOutputStream();
    new TarBundle()
        .put("b/z", TarBundle.Content.of(bytes("z")))
        .put("b/files/é/" + "x".repeat(120), TarBundle.Content.of(bytes("long")))
        .put("b/a", TarBundle.Content.script(bytes("a")))
        .writeTo(a);
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    new TarBundle()
        .put("b/a", TarBundle.Content.script(bytes("a")))
        .put("b/files/é/" + "x".repeat(120), TarBundle.Content.of(bytes("long")))
        .put("b/z", TarBundle.Content.of(bytes("z")))
        .writeTo(b);
    assertArrayEquals(a.toByteArray(), b.toByteArray());
  }

  @Test
  void extractsAndReadsTheManifest() throws IOException {
    Path tar = dir.resolve("b.tar");
    new TarBundle()
        .put("b/manifest.json", TarBundle.Content.of(manifest()))
        .put("b/files/w/" + "x".repeat(120) + ".o", TarBundle.Content.of(bytes("obj")))
        .put("b/replay", TarBundle.Content.script(bytes("#!/bin/sh\n")))
        .write(LinkScope.withUmask(022), tar);
    BundleReader.Bundle bundle = BundleReader.open(tar, Files.createDirectories(dir.resolve("x")));
    assertEquals("/w", bundle.manifest().getWorkingDirectory());
    assertEquals(1, bundle.manifest().getExitStatus());
    assertEquals("obj", Files.readString(bundle.file("/w/" + "x".repeat(120) + ".o")));
    assertEquals(dir.resolve("x/b"), bundle.root());
    BundleReader.Bundle again =
        BundleReader.open(bundle.root(), Files.createDirectories(dir.resolve("unused")));
    assertEquals(bundle.manifest(), again.manifest(), "an extracted folder opens too");
    assertEquals(dir.resolve("unused/b"), again.root(), "copied into the scratch folder");
  }

  /**
   * The folder form (what the bundle's own replay script passes, modes kept by tar) is copied like
   * a tar: nothing executable in the copy, and a link in the folder refuses the bundle.
   */
  @Test
  void aFolderIsCopiedWithoutExecBitsAndWithoutLinks() throws IOException {
    Path top = Files.createDirectories(dir.resolve("f/b/files/w"));
    Files.write(top.getParent().getParent().resolve("manifest.json"), manifest());
    Path tool = Files.writeString(top.resolve("gcc"), "#!/bin/sh\n");
    Files.setPosixFilePermissions(
        tool, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
    BundleReader.Bundle b =
        BundleReader.open(dir.resolve("f/b"), Files.createDirectories(dir.resolve("s1")));
    assertEquals(dir.resolve("s1/b"), b.root());
    assertFalse(Files.isExecutable(b.file("/w/gcc")), "copied without its exec bits");
    Files.createSymbolicLink(top.resolve("passwd"), Path.of("/etc/passwd"));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                BundleReader.open(dir.resolve("f/b"), Files.createDirectories(dir.resolve("s2"))));
    assertTrue(
        e.getMessage().contains("files/w/passwd, which is not a regular file"), e.getMessage());
  }

  /** explain's reading: the manifest and the report, from the tar's stream, writing nothing. */
  @Test
  void readTakesTheManifestAndReportWithoutExtracting() throws IOException {
    Path tar = dir.resolve("r.tar");
    new TarBundle()
        .put("r/manifest.json", TarBundle.Content.of(manifest()))
        .put("r/report.json", TarBundle.Content.of(bytes("{\"exit_status\": 1}")))
        .put("r/files/w/x.o", TarBundle.Content.of(new byte[JsonShape.MAX_CHARS + 1]))
        .write(LinkScope.withUmask(022), tar);
    List<Path> before;
    try (Stream<Path> s = Files.walk(dir)) {
      before = s.sorted().toList();
    }
    BundleReader.Contents c = BundleReader.read(tar);
    assertEquals("/w", c.manifest().getWorkingDirectory());
    assertEquals(1, c.report().getExitStatus());
    try (Stream<Path> s = Files.walk(dir)) {
      assertEquals(before, s.sorted().toList(), "nothing written");
    }
    Path folder = Files.createDirectories(dir.resolve("g/r"));
    Files.write(folder.resolve("manifest.json"), manifest());
    Files.createSymbolicLink(folder.resolve("report.json"), Path.of("/dev/zero"));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> BundleReader.read(folder));
    assertTrue(e.getMessage().contains("expected a regular file"), e.getMessage());
  }

  static Stream<Arguments> badBundles() {
    return Stream.of(
        Arguments.of("bad_dotdot", "b/../../evil", TarArchiveEntry.LF_NORMAL, "outside the bundle"),
        Arguments.of("bad_absolute", "/etc/evil", TarArchiveEntry.LF_NORMAL, "outside the bundle"),
        Arguments.of("bad_symlink", "b/link", TarArchiveEntry.LF_SYMLINK, "not a regular file"),
        Arguments.of("bad_two_tops", "c/manifest.json", TarArchiveEntry.LF_NORMAL, "second top"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badBundles")
  void refusesHostileTars(String name, String entry, byte type, String found) throws IOException {
    Path tar = dir.resolve(name + ".tar");
    try (TarArchiveOutputStream out = new TarArchiveOutputStream(Files.newOutputStream(tar))) {
      out.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
      TarArchiveEntry first = new TarArchiveEntry("b/manifest.json");
      byte[] m = manifest();
      first.setSize(m.length);
      out.putArchiveEntry(first);
      out.write(m);
      out.closeArchiveEntry();
      TarArchiveEntry e = new TarArchiveEntry(entry, type, true);
      if (type == TarArchiveEntry.LF_SYMLINK) {
        e.setLinkName("/etc/passwd");
      }
      out.putArchiveEntry(e);
      out.closeArchiveEntry();
    }
    Path into = Files.createDirectories(dir.resolve("into"));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> BundleReader.open(tar, into));
    assertTrue(e.getMessage().startsWith(tar + ": expected a reproducer bundle"), e.getMessage());
    assertTrue(e.getMessage().contains(found), e.getMessage());
    assertFalse(Files.exists(dir.resolve("evil")));
  }

  @Test
  void notATarIsOneLine() throws IOException {
    Path file = dir.resolve("bad_not_a_tar.tar");
    Files.writeString(file, "hello, not a tar\n".repeat(40));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> BundleReader.open(file, Files.createDirectories(dir.resolve("into"))));
    assertEquals(
        file + ": expected a reproducer bundle (a tar written by offlink), found no tar header",
        e.getMessage());
  }
}
