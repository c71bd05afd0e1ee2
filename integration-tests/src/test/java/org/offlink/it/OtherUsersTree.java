package org.offlink.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The offlink tree as another user runs it. The ITs that link as a second uid ({@code setpriv})
 * need every folder above the tree to be searchable by others. A clone under a 0700 home, or under
 * {@code /root} (where {@code scripts/fresh-check.sh} clones), is not, and GCC then silently runs
 * its own lto-wrapper instead of the {@code -B} one: the test would check stock GCC. Where the tree
 * cannot be reached, a copy in the system's temporary folder (0755, modes and times kept) stands in
 * for it, made once per test JVM and removed when the JVM exits.
 */
final class OtherUsersTree {
  private static final Map<Path, Path> COPIES = new ConcurrentHashMap<>();

  private OtherUsersTree() {}

  /** {@code tree} itself when other users can reach it, else a reachable copy of it. */
  static Path of(Path tree) {
    Path abs = tree.toAbsolutePath().normalize();
    if (reachable(abs)) {
      return abs;
    }
    return COPIES.computeIfAbsent(abs, OtherUsersTree::copy);
  }

  /** Whether others can search every folder down to {@code dir} and read and search it. */
  static boolean reachable(Path dir) {
    try {
      for (Path p = dir; p != null; p = p.getParent()) {
        Set<PosixFilePermission> perms = Files.getPosixFilePermissions(p);
        if (!perms.contains(PosixFilePermission.OTHERS_EXECUTE)) {
          return false;
        }
      }
      return Files.getPosixFilePermissions(dir).contains(PosixFilePermission.OTHERS_READ);
    } catch (IOException e) {
      return false;
    }
  }

  private static Path copy(Path tree) {
    try {
      Path tmp = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath();
      if (!reachable(tmp)) {
        throw new IOException(
            tree + " is not reachable by other users, nor is " + tmp + " for a copy of it");
      }
      Path top = Files.createTempDirectory(tmp, "offlink-it-tree-");
      Files.setPosixFilePermissions(top, PosixFilePermissions.fromString("rwxr-xr-x"));
      Path copy = top.resolve(tree.getFileName());
      Files.walkFileTree(
          tree,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs)
                throws IOException {
              Path to = copy.resolve(tree.relativize(dir).toString());
              Files.createDirectories(to);
              Files.setPosixFilePermissions(to, PosixFilePermissions.fromString("rwxr-xr-x"));
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
                throws IOException {
              Path to = copy.resolve(tree.relativize(file).toString());
              Files.copy(file, to, StandardCopyOption.COPY_ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
              if (!attrs.isSymbolicLink()) {
                Set<PosixFilePermission> perms = Files.getPosixFilePermissions(to);
                perms.add(PosixFilePermission.OTHERS_READ);
                perms.add(PosixFilePermission.GROUP_READ);
                Files.setPosixFilePermissions(to, perms);
              }
              return FileVisitResult.CONTINUE;
            }
          });
      Runtime.getRuntime().addShutdownHook(new Thread(() -> remove(top)));
      return copy;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void remove(Path top) {
    try (Stream<Path> all = Files.walk(top)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      // a temporary folder: nothing more to do at exit
    }
  }
}
