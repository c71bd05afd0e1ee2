package org.offlink.fuzz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One private folder per fuzzing process, holding the input file that the file-based readers open
 * (they take paths, like the tools). {@code /dev/shm} when present, so that a million writes do not
 * reach a disk. Removed when the JVM exits.
 */
final class FuzzFiles {
  private static final Path DIR = createDir();

  private FuzzFiles() {}

  /** Writes {@code data} to {@code name} in the private folder and returns its path. */
  static Path write(String name, byte[] data) {
    Path file = DIR.resolve(name);
    try {
      Files.write(file, data);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return file;
  }

  private static Path createDir() {
    try {
      Path shm = Path.of("/dev/shm");
      Path dir =
          Files.isDirectory(shm) && Files.isWritable(shm)
              ? Files.createTempDirectory(shm, "offlink-fuzz")
              : Files.createTempDirectory("offlink-fuzz");
      Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(dir)));
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void deleteTree(Path dir) {
    try (var files = Files.list(dir)) {
      files.forEach(f -> f.toFile().delete());
      Files.deleteIfExists(dir);
    } catch (IOException e) {
      // best effort at exit
    }
  }
}
