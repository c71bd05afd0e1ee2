package org.offlink.streamer.io;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Writes a file so that nobody ever sees half of it: the contents go to {@code .<name>.XXXXXX.tmp}
 * beside the target (created exclusively, with the process umask's permissions, as a compiler's
 * output would be), which is then renamed over the target. A file being replaced keeps its
 * permissions. The temporary file is gone afterwards whether the write succeeded or not.
 */
public final class AtomicFiles {
  /** What writes the contents. */
  @FunctionalInterface
  public interface Body {
    /** Writes the whole contents to {@code out}. */
    void writeTo(OutputStream out) throws IOException;
  }

  private AtomicFiles() {}

  /** Replaces {@code target} with {@code bytes}. */
  public static void write(Path target, byte[] bytes) throws IOException {
    write(target, out -> out.write(bytes));
  }

  /** Replaces {@code target} with what {@code body} writes. */
  public static void write(Path target, Body body) throws IOException {
    Path abs = target.toAbsolutePath();
    Path temp = null;
    try {
      OutputStream raw = null;
      for (int attempt = 0; raw == null; attempt++) {
        temp = abs.resolveSibling("." + abs.getFileName() + "." + TempNames.random(6) + ".tmp");
        try {
          raw = Files.newOutputStream(temp, StandardOpenOption.CREATE_NEW);
        } catch (FileAlreadyExistsException e) {
          if (attempt + 1 == TempNames.ATTEMPTS) {
            throw e;
          }
          temp = null;
        }
      }
      try (OutputStream out = new BufferedOutputStream(raw, 1 << 16)) {
        body.writeTo(out);
      }
      keepPermissions(abs, temp);
      try {
        Files.move(temp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temp, abs, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      if (temp != null) {
        Files.deleteIfExists(temp);
      }
    }
  }

  /** A file being replaced (an in-place edit) keeps its mode; a new one keeps the umask's. */
  private static void keepPermissions(Path target, Path temp) throws IOException {
    if (!Files.exists(target)) {
      return;
    }
    try {
      Files.setPosixFilePermissions(temp, Files.getPosixFilePermissions(target));
    } catch (UnsupportedOperationException e) {
      // Not a POSIX file system: the new file's default permissions stay.
    }
  }
}
