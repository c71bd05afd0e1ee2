package org.offlink.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.stream.Stream;

/** Copying and removing folder trees in the ITs. */
final class Trees {
  private Trees() {}

  /**
   * Copies {@code from} to {@code to}: folders made, files copied with their modes and times,
   * symbolic links copied as links. Returns {@code to}.
   */
  static Path copy(Path from, Path to) throws IOException {
    try (Stream<Path> all = Files.walk(from)) {
      for (Path p : all.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isSymbolicLink(p)) {
          Files.createSymbolicLink(target, Files.readSymbolicLink(p));
        } else if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
    return to;
  }

  /** Removes {@code dir} and everything under it. */
  static void delete(Path dir) throws IOException {
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
