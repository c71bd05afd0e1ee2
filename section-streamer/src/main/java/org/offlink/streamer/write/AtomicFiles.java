package org.offlink.streamer.write;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/** Writes a file so readers never see a partial one: a temp file in the same folder, renamed. */
final class AtomicFiles {
  private AtomicFiles() {}

  static void write(Path file, byte[] bytes) throws IOException {
    Path target = file.toAbsolutePath();
    Path dir = target.getParent();
    Path tmp = Files.createTempFile(dir, "." + target.getFileName() + ".", ".tmp");
    try {
      Files.write(tmp, bytes);
      if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
        // createTempFile makes the file 0600; objects are normally world-readable like as(1)'s.
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-r--r--"));
      }
      try {
        Files.move(
            tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
  }
}
