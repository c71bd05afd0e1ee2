package org.offlink.ltowrapper.reproduce;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.offlink.ltowrapper.report.proto.ReproducerManifest;

/**
 * Opens a reproducer bundle: a tar ({@link #extract}) or the folder it was extracted to. Only
 * regular files and folders under one top folder are accepted, with relative names that stay inside
 * it (no {@code ..}, no absolute names, no links), so a foreign tar cannot write outside the
 * scratch folder.
 */
public final class BundleReader {
  private BundleReader() {}

  /** An opened bundle: its top folder and manifest. */
  public record Bundle(Path root, ReproducerManifest manifest) {
    /** The stored copy of the recorded file {@code path}. */
    Path file(String path) {
      return root.resolve(BundlePaths.entryOf(Path.of(path)));
    }

    /** The link report recorded with the bundle. */
    public Path report() {
      return root.resolve(BundlePaths.REPORT);
    }
  }

  /**
   * The bundle at {@code source}: a folder is read in place, a tar is extracted into {@code
   * scratch} first.
   *
   * @throws IllegalArgumentException when {@code source} is not a bundle (one line naming it)
   */
  public static Bundle open(Path source, Path scratch) throws IOException {
    Path root = Files.isDirectory(source) ? source : extract(source, scratch);
    Path manifest = root.resolve(BundlePaths.MANIFEST);
    if (!Files.isRegularFile(manifest)) {
      throw new IllegalArgumentException(
          source + ": expected a reproducer bundle with " + BundlePaths.MANIFEST + ", found none");
    }
    String json = Files.readString(manifest, StandardCharsets.UTF_8);
    return new Bundle(root, ManifestJson.decode(json, manifest.toString()));
  }

  /** Extracts {@code tar} into {@code into}; returns its top folder. */
  static Path extract(Path tar, Path into) throws IOException {
    byte[] head = new byte[512];
    int n;
    try (InputStream in = Files.newInputStream(tar)) {
      n = in.readNBytes(head, 0, head.length);
    }
    if (!TarArchiveInputStream.matches(head, n)) {
      throw notABundle(tar, "no tar header");
    }
    Optional<String> top = Optional.empty();
    try (InputStream in = Files.newInputStream(tar);
        TarArchiveInputStream entries = new TarArchiveInputStream(in, "UTF-8")) {
      TarArchiveEntry e;
      while ((e = entries.getNextEntry()) != null) {
        String name = checkedName(tar, e);
        String first = name.split("/", 2)[0];
        if (top.isPresent() && !top.get().equals(first)) {
          throw notABundle(tar, "a second top folder " + first);
        }
        top = Optional.of(first);
        Path out = into.resolve(name);
        if (e.isDirectory()) {
          Files.createDirectories(out);
        } else {
          Files.createDirectories(out.getParent());
          Files.copy(entries, out);
        }
      }
    } catch (IOException e) {
      if (e instanceof java.nio.file.FileSystemException) {
        throw e;
      }
      throw notABundle(tar, "unreadable tar (" + e.getMessage() + ")");
    }
    if (top.isEmpty()) {
      throw notABundle(tar, "an empty archive");
    }
    return into.resolve(top.get());
  }

  private static String checkedName(Path tar, TarArchiveEntry e) {
    String name = e.getName();
    // isFile() is true for any name without a trailing '/', links included: test the type flag.
    boolean regular =
        e.getLinkFlag() == TarArchiveEntry.LF_NORMAL
            || e.getLinkFlag() == TarArchiveEntry.LF_OLDNORM;
    if (!regular && !e.isDirectory()) {
      throw notABundle(tar, "entry " + name + ", which is not a regular file or folder");
    }
    Path p = Path.of(name).normalize();
    if (p.isAbsolute() || p.startsWith("..") || name.contains("/../") || name.startsWith("../")) {
      throw notABundle(tar, "entry " + name + " outside the bundle's folder");
    }
    return p.toString();
  }

  private static IllegalArgumentException notABundle(Path tar, String found) {
    return new IllegalArgumentException(
        tar + ": expected a reproducer bundle (a tar written by offlink), found " + found);
  }
}
