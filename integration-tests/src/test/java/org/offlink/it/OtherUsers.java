package org.offlink.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * What the ITs that work as a second uid ({@code setpriv}) need: every folder above the offlink
 * tree and above their work folders searchable by others. A clone under a 0700 home, or under
 * {@code /root} (where {@code scripts/fresh-check.sh} clones), is not. GCC then silently runs its
 * own lto-wrapper instead of the {@code -B} one, so the test would check stock GCC; and the other
 * user cannot write its files. Where the repository cannot be reached, a copy of the tree (0755,
 * modes and times kept) and the work folders go to {@code /var/tmp}, made once per test JVM and
 * removed when it exits. Not {@code /tmp}: FaultInjectionIT mounts a noexec tmpfs over it.
 */
final class OtherUsers {
  private static final Map<Path, Path> COPIES = new ConcurrentHashMap<>();

  private OtherUsers() {}

  /** {@code tree} itself when other users can reach it, else a reachable copy of it. */
  static Path tree(Path tree) {
    Path abs = tree.toAbsolutePath().normalize();
    if (reachable(abs)) {
      return abs;
    }
    return COPIES.computeIfAbsent(abs, OtherUsers::copy);
  }

  /**
   * {@code preferred} when other users can reach its parent, else a new empty folder (0755) of the
   * same name in the shared temporary folder, removed when the JVM exits.
   */
  static Path folder(Path preferred) {
    Path abs = preferred.toAbsolutePath().normalize();
    if (reachable(abs.getParent())) {
      return abs;
    }
    try {
      Path top = sharedTemp("offlink-it-");
      return Files.createDirectory(top.resolve(abs.getFileName()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
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

  /** A new 0755 folder in /var/tmp (else java.io.tmpdir), removed when the JVM exits. */
  private static Path sharedTemp(String prefix) throws IOException {
    Path base = Path.of("/var/tmp");
    if (!Files.isDirectory(base) || !Files.isWritable(base) || !reachable(base)) {
      base = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath();
    }
    if (!reachable(base)) {
      throw new IOException("no temporary folder that other users can reach (" + base + ")");
    }
    Path top = Files.createTempDirectory(base, prefix);
    Files.setPosixFilePermissions(top, PosixFilePermissions.fromString("rwxr-xr-x"));
    Runtime.getRuntime().addShutdownHook(new Thread(() -> remove(top)));
    return top;
  }

  private static Path copy(Path tree) {
    try {
      Path copy = Trees.copy(tree, sharedTemp("offlink-it-tree-").resolve(tree.getFileName()));
      // Readable and searchable by all, whatever the modes of the tree copied.
      try (Stream<Path> all = Files.walk(copy)) {
        for (Path p : all.filter(f -> !Files.isSymbolicLink(f)).toList()) {
          Set<PosixFilePermission> perms = Files.getPosixFilePermissions(p);
          if (Files.isDirectory(p)) {
            perms.addAll(PosixFilePermissions.fromString("rwxr-xr-x"));
          } else {
            perms.add(PosixFilePermission.GROUP_READ);
            perms.add(PosixFilePermission.OTHERS_READ);
          }
          Files.setPosixFilePermissions(p, perms);
        }
      }
      return copy;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void remove(Path top) {
    try {
      Trees.delete(top);
    } catch (IOException e) {
      // a temporary folder: nothing more to do at exit
    }
  }
}
