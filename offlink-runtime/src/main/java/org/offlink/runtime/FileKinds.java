package org.offlink.runtime;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Says what a path that should be a regular file really is, for one-line errors: "no such file"
 * only when nothing is there, otherwise "a directory", "a FIFO", "a symbolic link loop" and so on.
 */
public final class FileKinds {
  private static final int S_IFMT = 0170000;
  private static final int S_IFIFO = 0010000;
  private static final int S_IFCHR = 0020000;
  private static final int S_IFBLK = 0060000;
  private static final int S_IFSOCK = 0140000;

  /** What {@link #describe} says when nothing is at the path. */
  public static final String NO_SUCH_FILE = "no such file";

  private FileKinds() {}

  /** Returns {@code file} when it is a regular file (after symlinks); throws a clear error else. */
  public static Path requireRegularFile(Path file) throws FileSystemException {
    if (Files.isRegularFile(file)) {
      return file;
    }
    throw notRegular(file);
  }

  /**
   * The exception for a {@code file} that is not a regular file: {@link NoSuchFileException} when
   * nothing is there, else one whose message is {@code FILE: expected a regular file, found a
   * directory} (or a FIFO, ...).
   */
  public static FileSystemException notRegular(Path file) {
    String kind = describe(file);
    return kind.equals(NO_SUCH_FILE)
        ? new NoSuchFileException(file.toString(), null, kind)
        : new FileSystemException(file.toString(), null, "expected a regular file, found " + kind);
  }

  /**
   * What is at {@code file}, as a noun phrase: "a regular file", "a directory", "a FIFO", "a
   * character device", "a dangling symbolic link", "a symbolic link loop", ..., or {@value
   * #NO_SUCH_FILE}.
   */
  public static String describe(Path file) {
    try {
      BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
      if (a.isRegularFile()) {
        return "a regular file";
      }
      if (a.isDirectory()) {
        return "a directory";
      }
      return switch ((int) Files.getAttribute(file, "unix:mode") & S_IFMT) {
        case S_IFIFO -> "a FIFO";
        case S_IFCHR -> "a character device";
        case S_IFBLK -> "a block device";
        case S_IFSOCK -> "a socket";
        default -> "a file of another kind";
      };
    } catch (NoSuchFileException e) {
      return Files.isSymbolicLink(file) ? "a dangling symbolic link" : NO_SUCH_FILE;
    } catch (AccessDeniedException e) {
      return "a path it may not look at (permission denied)";
    } catch (FileSystemException e) {
      String reason = String.valueOf(e.getReason());
      return reason.contains("symbolic links")
          ? "a symbolic link loop"
          : "a path the OS refuses (" + reason + ")";
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      return "a path that cannot be examined";
    }
  }

  /** Whether {@code file} is a character or block device (after symlinks). */
  public static boolean isDevice(Path file) throws IOException {
    int type = (int) Files.getAttribute(file, "unix:mode") & S_IFMT;
    return type == S_IFCHR || type == S_IFBLK;
  }

  /** Whether {@code name} can name a file at all (no NUL byte). */
  public static boolean isValidName(String name) {
    try {
      Path.of(name);
      return true;
    } catch (InvalidPathException e) {
      return false;
    }
  }
}
