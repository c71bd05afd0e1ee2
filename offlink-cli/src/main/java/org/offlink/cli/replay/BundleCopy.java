package org.offlink.cli.replay;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

/**
 * Brings a bundle into a scratch folder, the tar and the folder form alike: only regular files and
 * folders, under one top folder, with relative names that stay inside it (no {@code ..}, no
 * absolute names, no links, devices or FIFOs), each file created new with mode 0600. Nothing of a
 * bundle is ever executable after this, whatever modes its tar or folder had (the folder form is
 * what the bundle's own {@code replay} script passes, with the modes {@code tar x} kept), and the
 * original folder is not read again, so that nobody can change a file between its check and its
 * use.
 */
final class BundleCopy {
  /** Receives one regular entry of a tar: its name below the top folder and its bytes. */
  interface EntryReader {
    void accept(String entry, InputStream in) throws IOException;
  }

  private BundleCopy() {}

  /** Extracts {@code tar} into {@code into}; returns its top folder. */
  static Path tar(Path tar, Path into) throws IOException {
    Path[] top = new Path[1];
    walkTar(
        tar,
        (top1, entry, e, in) -> {
          Path out = into.resolve(top1).resolve(entry);
          top[0] = into.resolve(top1);
          if (e.isDirectory()) {
            Files.createDirectories(out);
          } else {
            Files.createDirectories(out.getParent());
            write(tar, entry, in, out);
          }
        });
    return top[0];
  }

  /** Reads the regular entries of {@code tar} (names below its top folder), writing nothing. */
  static void readTar(Path tar, EntryReader reader) throws IOException {
    walkTar(
        tar,
        (top, entry, e, in) -> {
          if (!e.isDirectory()) {
            reader.accept(entry, in);
          }
        });
  }

  /** Copies the folder {@code source} into {@code into}; returns the copy. */
  static Path folder(Path source, Path into) throws IOException {
    Path top = into.resolve(source.normalize().getFileName().toString()); // absolute: the caller's
    Path start = source.toRealPath(); // the folder named by the user; links below it are refused
    Files.walkFileTree(
        start,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes a)
              throws IOException {
            Files.createDirectories(top.resolve(start.relativize(dir).toString()));
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes a) throws IOException {
            String entry = start.relativize(file).toString();
            if (!a.isRegularFile()) {
              throw notABundle(
                  source, "entry " + entry + ", which is not a regular file or folder");
            }
            try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
              write(source, entry, in, top.resolve(entry));
            }
            return FileVisitResult.CONTINUE;
          }
        });
    return top;
  }

  /** Writes {@code in} to the new file {@code out}, mode 0600, never through a link. */
  private static void write(Path bundle, String entry, InputStream in, Path out)
      throws IOException {
    try {
      Files.createFile(
          out, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    } catch (FileAlreadyExistsException e) {
      throw notABundle(bundle, "entry " + entry + " twice");
    }
    try (OutputStream o =
        Files.newOutputStream(out, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
      in.transferTo(o);
    }
  }

  /** One checked entry: the top folder's name, the name below it, the tar entry, its bytes. */
  private interface Visitor {
    void visit(String top, String entry, TarArchiveEntry e, InputStream in) throws IOException;
  }

  private static void walkTar(Path tar, Visitor visitor) throws IOException {
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
        Path name = checkedName(tar, e);
        String first = name.getName(0).toString();
        if (top.isPresent() && !top.get().equals(first)) {
          throw notABundle(tar, "a second top folder " + OneLine.quoted(first));
        }
        top = Optional.of(first);
        String below =
            name.getNameCount() == 1 ? "" : name.subpath(1, name.getNameCount()).toString();
        visitor.visit(first, below, e, entries);
      }
    } catch (IOException e) {
      if (e instanceof FileSystemException) {
        throw e; // the scratch folder's own trouble (no space left, ...), naming its file
      }
      throw notABundle(
          tar, "an unreadable tar (" + OneLine.of(String.valueOf(e.getMessage())) + ")");
    }
    if (top.isEmpty()) {
      throw notABundle(tar, "an empty archive");
    }
  }

  private static Path checkedName(Path tar, TarArchiveEntry e) {
    String name = e.getName();
    // isFile() is true for any name without a trailing '/', links included: test the type flag.
    boolean regular =
        e.getLinkFlag() == TarArchiveEntry.LF_NORMAL
            || e.getLinkFlag() == TarArchiveEntry.LF_OLDNORM;
    if (!regular && !e.isDirectory()) {
      throw notABundle(
          tar, "entry " + OneLine.quoted(name) + ", which is not a regular file or folder");
    }
    Path p;
    try {
      p = Path.of(name).normalize();
    } catch (InvalidPathException bad) {
      throw notABundle(tar, "entry " + OneLine.quoted(name) + ", which is not a file name");
    }
    if (p.isAbsolute()
        || p.toString().isEmpty()
        || p.startsWith("..")
        || name.contains("/../")
        || name.startsWith("../")) {
      throw notABundle(tar, "entry " + OneLine.quoted(name) + " outside the bundle's folder");
    }
    return p;
  }

  static IllegalArgumentException notABundle(Path bundle, String found) {
    String form = Files.isDirectory(bundle) ? "the folder of a tar" : "a tar";
    return new IllegalArgumentException(
        bundle
            + ": expected a reproducer bundle ("
            + form
            + " written by offlink), found "
            + found);
  }
}
