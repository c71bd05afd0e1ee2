package org.offlink.streamer.edit;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/** Writes a file atomically: a temporary file in the target's directory, then a rename. */
final class AtomicFiles {
  /** What writes the contents. */
  interface Body {
    void writeTo(OutputStream out) throws IOException;
  }

  private AtomicFiles() {}

  static void write(Path target, Body body) throws IOException {
    Path abs = target.toAbsolutePath();
    Path temp = Files.createTempFile(abs.getParent(), "." + abs.getFileName() + ".", ".tmp");
    try {
      try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(temp), 1 << 16)) {
        body.writeTo(out);
      }
      setPermissions(abs, temp);
      Files.move(temp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  /** Keeps the permissions of a file being replaced; new files get rw-r--r-- like a compiler's. */
  private static void setPermissions(Path target, Path temp) throws IOException {
    try {
      Set<PosixFilePermission> perms =
          Files.exists(target)
              ? Files.getPosixFilePermissions(target)
              : PosixFilePermissions.fromString("rw-r--r--");
      Files.setPosixFilePermissions(temp, perms);
    } catch (UnsupportedOperationException e) {
      // Not a POSIX file system: the temporary file's default permissions stay.
    }
  }
}
