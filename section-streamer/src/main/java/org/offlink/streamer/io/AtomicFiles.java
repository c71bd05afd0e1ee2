package org.offlink.streamer.io;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
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

  /**
   * Replaces {@code target} with what {@code body} writes. A failure to create, write or rename the
   * temporary file is reported against {@code target}, the file the user asked for.
   */
  public static void write(Path target, Body body) throws IOException {
    try {
      writeViaTemp(target, body);
    } catch (FileSystemException e) {
      if (!isTempOf(e.getFile(), target)) {
        throw e;
      }
      FileSystemException named = renamed(e, target.toString());
      named.initCause(e);
      throw named;
    }
  }

  private static boolean isTempOf(String file, Path target) {
    if (file == null || target.getFileName() == null) {
      return false;
    }
    String name = String.valueOf(Path.of(file).getFileName());
    return name.startsWith("." + target.getFileName() + ".") && name.endsWith(".tmp");
  }

  /** The same kind of exception, naming {@code target}; callers may catch the kind. */
  private static FileSystemException renamed(FileSystemException e, String target) {
    if (e instanceof AccessDeniedException) {
      return new AccessDeniedException(target, null, "cannot write: permission denied");
    }
    if (e instanceof NoSuchFileException) {
      return new NoSuchFileException(target, null, "cannot write: no such directory");
    }
    return new FileSystemException(
        target, null, "cannot write: " + (e.getReason() == null ? "failed" : e.getReason()));
  }

  // The target is not made absolute: a relative name keeps working in a working directory whose
  // absolute path is near PATH_MAX, as GCC's own relative -save-temps names do.
  private static void writeViaTemp(Path abs, Body body) throws IOException {
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
