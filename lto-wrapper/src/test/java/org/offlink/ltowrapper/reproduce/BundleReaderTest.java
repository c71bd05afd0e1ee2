package org.offlink.ltowrapper.reproduce;

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
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.offlink.ltowrapper.report.proto.ReproducerManifest;

/** Writing bundles deterministically and reading them back; hostile tars are refused. */
class BundleReaderTest {
  @TempDir Path dir;

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] manifest() {
    return ManifestJson.encode(
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
        .write(tar);
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
