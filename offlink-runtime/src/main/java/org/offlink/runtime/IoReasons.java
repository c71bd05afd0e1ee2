package org.offlink.runtime;

import java.io.IOException;
import java.nio.file.FileSystemException;

/**
 * The operating system's reason for a failed file operation, as {@code strerror} words ("Permission
 * denied", "No space left on device"), for messages of the form {@code <path>: <reason>}.
 */
public final class IoReasons {
  private IoReasons() {}

  /** The reason alone, without the path Java puts in front of it. */
  public static String reason(IOException e) {
    if (e instanceof FileSystemException f && f.getReason() != null) {
      return f.getReason();
    }
    if (e instanceof FileSystemException) {
      return switch (e.getClass().getSimpleName()) {
        case "AccessDeniedException" -> "Permission denied";
        case "NoSuchFileException" -> "No such file or directory";
        case "FileAlreadyExistsException" -> "File exists";
        case "NotDirectoryException" -> "Not a directory";
        case "DirectoryNotEmptyException" -> "Directory not empty";
        default -> "I/O error";
      };
    }
    String m = e.getMessage();
    return m == null || m.isEmpty() ? "I/O error" : m;
  }

  /** {@code <path>: <reason>}. */
  public static String describe(String path, IOException e) {
    return path + ": " + reason(e);
  }
}
